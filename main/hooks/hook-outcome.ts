import type { HookEvent, HookRun } from '../../shared/schemas/hooks.js';
import type { CommandOutcome } from './command-hook.js';

/** What one hook's run means for its call, as Claude Code reads a command hook's exit code and output. */
export interface HookEffect {
  run: HookRun;
  /** Its reason (deny, ask, block) or the error, for the model or the person. */
  reason?: string;
  /** PreToolUse: the input the call goes on with instead. */
  updatedInput?: Record<string, unknown>;
  /** Given to the model with the result. */
  additionalContext?: string;
  /** The hook failed (timed out, could not start) and its call is refused for it (`on_failure`, the default before a call). */
  refuses?: boolean;
}

const cut = (text: string, length: number) => (text.length > length ? `${text.slice(0, length)}…` : text);
const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The JSON a hook printed, read as Claude Code defines it (hookSpecificOutput, and the older decision/reason pair). */
function readJson(event: HookEvent, output: Record<string, unknown>): Pick<HookEffect, 'reason' | 'updatedInput' | 'additionalContext'> & { decision: HookRun['decision'] } {
  const specific = isObject(output.hookSpecificOutput) ? output.hookSpecificOutput : {};
  const additionalContext = typeof specific.additionalContext === 'string' ? specific.additionalContext : undefined;
  const extra = additionalContext ? { additionalContext } : {};
  const text = (value: unknown) => (typeof value === 'string' && value.trim() ? value.trim() : undefined);
  if (output.continue === false) return { decision: event === 'PreToolUse' ? 'deny' : 'block', reason: text(output.stopReason) ?? 'A hook stopped this call.', ...extra };
  if (event === 'PreToolUse') {
    // Cursor's hooks answer `permission` with `agent_message` (for the model) and `user_message`.
    const said = specific.permissionDecision ?? output.permission ?? (output.decision === 'approve' ? 'allow' : output.decision === 'block' ? 'deny' : undefined);
    const reason = text(specific.permissionDecisionReason) ?? text(output.reason) ?? text(output.agent_message) ?? text(output.user_message);
    const updatedInput = isObject(specific.updatedInput) ? { updatedInput: specific.updatedInput } : {};
    if (said === 'allow' || said === 'deny' || said === 'ask') return { decision: said, ...(reason ? { reason } : {}), ...updatedInput, ...extra };
    return { decision: 'continue', ...updatedInput, ...extra };
  }
  if (output.decision === 'block') return { decision: 'block', reason: text(output.reason) ?? 'A hook objected to this result.', ...extra };
  return { decision: 'continue', ...extra };
}

/**
 * A command hook's outcome: exit 0 goes on (its JSON, when it prints one, says more), exit 2 blocks with what it
 * wrote on stderr as the reason the model reads, any other exit is an error shown to the person that blocks nothing.
 * A hook that timed out or could not start refuses its call when `refuseOnFailure` (before a call, by default).
 */
export function interpret(event: HookEvent, handler: string, outcome: CommandOutcome, durationMs: number, refuseOnFailure: boolean): HookEffect {
  const base = { event, handler: cut(handler, 200), durationMs };
  const failed = (message: string, refuses: boolean): HookEffect => ({ run: { ...base, decision: 'error', message: cut(message, 1_000) }, reason: message, ...(refuses ? { refuses } : {}) });
  if (outcome.failure === 'timeout') return failed('hook_timeout: the hook did not finish in its time and was stopped.', refuseOnFailure);
  if (outcome.failure === 'not_started') return failed(`hook_not_started: the hook could not be run (${outcome.reason ?? 'unknown reason'}).`, refuseOnFailure);
  if (outcome.failure === 'cancelled') return failed('hook_cancelled: the call was cancelled while its hook ran.', true);
  const stderr = outcome.stderr.trim();
  if (outcome.exitCode === 2) {
    const reason = stderr || 'A hook blocked this call (it gave no reason).';
    return { run: { ...base, decision: event === 'PreToolUse' ? 'deny' : 'block', message: cut(reason, 1_000) }, reason };
  }
  if (outcome.exitCode !== 0) return failed(`hook_failed: the hook exited with ${String(outcome.exitCode)}${stderr ? `: ${stderr}` : ''}.`, false);
  const stdout = outcome.stdout.trim();
  // Claude Code gives the model what a UserPromptSubmit or SessionStart hook prints (other events' output is the log's).
  const printedForModel = (event === 'UserPromptSubmit' || event === 'SessionStart') && stdout ? { additionalContext: cut(stdout, 10_000) } : {};
  if (!stdout.startsWith('{')) return { run: { ...base, decision: 'continue' }, ...printedForModel };
  let parsed: unknown;
  try {
    parsed = JSON.parse(stdout);
  } catch {
    return failed('hook_output_invalid: the hook printed something that starts like JSON but is not; it was ignored.', false);
  }
  if (!isObject(parsed)) return { run: { ...base, decision: 'continue' } };
  const read = readJson(event, parsed);
  return {
    run: { ...base, decision: read.decision, ...(read.reason ? { message: cut(read.reason, 1_000) } : {}), ...(read.updatedInput ? { changedInput: true } : {}) },
    ...(read.reason ? { reason: read.reason } : {}),
    ...(read.updatedInput ? { updatedInput: read.updatedInput } : {}),
    ...(read.additionalContext ? { additionalContext: read.additionalContext } : {}),
  };
}

import type { BundleHooks, HookEvent, HookHandler, HookMatcher, HookRun, Hooks } from '../../shared/schemas/hooks.js';
import type { InvokeResult } from '../../shared/schemas/invocation.js';
import type { ToolFile } from '../../shared/schemas/tool.js';
import type { Logger } from '../log.js';
import { DEFAULT_HOOK_TIMEOUT_S, runCommandHook, type CommandOutcome } from './command-hook.js';
import { runHttpHook } from './http-hook.js';
import { interpret, type HookEffect } from './hook-outcome.js';
import { matcherTakes, toolNames } from './hook-matching.js';

/** Hooks running at once, in all: a hook whose command calls a tool whose hook calls a tool… stops here, as does a flood. */
export const MAX_RUNNING_HOOKS = 16;

export interface ToolHookDeps {
  /** The hooks as the person's settings have them now. */
  hooks(): Hooks | undefined;
  bundleSlug(bundleID: string): string | undefined;
  /** The bundle's own hooks, about its tools, when the person switched them on. */
  bundleHooks(bundleID: string): BundleHooks | undefined;
  /** A chat's own hooks (its calls, however deep inside agents, scripts and recipes, and its turns). */
  chatHooks?: (chatId: string) => Hooks | undefined;
  /** Where commands run, and what `CLAUDE_PROJECT_DIR` names for hook files written for Claude Code: the data folder. */
  cwd: string;
  /** Runs a script hook's tool in the sandbox with the call's JSON as its arguments: what it returned, as a command's output. */
  runScript: (tool: string, input: Record<string, unknown>, options: { timeoutMs: number; signal?: AbortSignal }) => Promise<CommandOutcome>;
  /** Whether an http hook may reach this URL (the allowed hosts, as for HTTP tools). */
  hostAllowed: (url: URL) => boolean;
  log: Logger;
}

/** Who makes the call and how the tool is addressed, as the hook reads them under `toolbelt`. */
export interface HookCall {
  caller: unknown;
  signal?: AbortSignal;
  /** The chat the call belongs to; calls outside any chat (the tester, an MCP client) are Toolbelt's own session. */
  sessionId?: string;
}

/** Before a call: how it goes on. */
export interface BeforeCall {
  runs: HookRun[];
  refusal?: { code: 'hook_denied' | 'hook_failed' | 'hook_busy'; message: string };
  /** A hook said allow: the call needs no approval from the person (unless another asked). */
  allow: boolean;
  /** A hook asked for the person's yes, and why. */
  ask?: string;
  updatedInput?: Record<string, unknown>;
  context: string[];
}

/** After a call: what hooks said about its result, for the model. */
export interface AfterCall {
  runs: HookRun[];
  context: string[];
}

/** Hooks that are not about one tool call (the person's message, the end of a turn): what they said. */
export interface SessionOutcome {
  runs: HookRun[];
  /** A hook blocked (exit 2, `decision: "block"`): its reason. */
  block?: string;
  context: string[];
}

export interface ToolHooks {
  /**
   * Null when no hook applies (nothing ran): the call goes on as it came. Said at once, not as a promise: every call
   * asks, and most apps have no hooks.
   */
  before(tool: ToolFile, args: Record<string, unknown>, call: HookCall): Promise<BeforeCall> | null;
  after(tool: ToolFile, args: Record<string, unknown>, call: HookCall, result: InvokeResult): Promise<AfterCall> | null;
  /**
   * Events of a conversation, not of one call: UserPromptSubmit, Stop and SessionStart run every hook of the event;
   * SubagentStart and SubagentStop those whose matcher takes one of `names` (the agent's, as Claude Code matches agent
   * types). Null when none applies.
   */
  session(event: SessionEvent, sessionId: string, fields: Record<string, unknown>, names?: readonly string[]): Promise<SessionOutcome | null>;
}

export type SessionEvent = 'UserPromptSubmit' | 'Stop' | 'SessionStart' | 'SubagentStart' | 'SubagentStop';

/** Which is more restrictive: a deny over an ask over an allow over going on. */
const STRICTNESS: Record<HookRun['decision'], number> = { error: 0, continue: 0, allow: 1, ask: 2, block: 3, deny: 3 };

export function createToolHooks(deps: ToolHookDeps): ToolHooks {
  let running = 0;

  /** The event's entries: the person's (Settings), the chat's, then the bundle's, as Claude Code runs user settings before a project's. */
  function entriesOf(event: HookEvent, sessionId: string | undefined, bundleID?: string): HookMatcher[] {
    const global = deps.hooks()?.[event];
    const chat = sessionId ? deps.chatHooks?.(sessionId)?.[event] : undefined;
    const own = bundleID && (event === 'PreToolUse' || event === 'PostToolUse' || event === 'PostToolUseFailure') ? deps.bundleHooks(bundleID)?.[event] : undefined;
    if (!chat?.length && !own?.length) return global ?? [];
    return [...(global ?? []), ...(chat ?? []), ...(own ?? [])];
  }

  function matching(event: 'PreToolUse' | 'PostToolUse' | 'PostToolUseFailure', tool: ToolFile, sessionId: string | undefined): HookHandler[] {
    const entries = entriesOf(event, sessionId, tool.bundleID);
    if (entries.length === 0) return [];
    const names = toolNames(tool, deps.bundleSlug(tool.bundleID));
    return entries.filter((entry) => matcherTakes(entry.matcher, names)).flatMap((entry) => entry.hooks);
  }

  /** Runs the event's hooks side by side (as the other apps do), each with the call's JSON. */
  async function run(event: HookEvent, handlers: HookHandler[], payload: Record<string, unknown>, signal: AbortSignal | undefined): Promise<HookEffect[] | 'busy'> {
    if (running + handlers.length > MAX_RUNNING_HOOKS) return 'busy';
    running += handlers.length;
    const call = { hook_event_name: event, ...payload };
    const input = JSON.stringify(call);
    const env = { ...process.env, CLAUDE_PROJECT_DIR: deps.cwd, TOOLBELT_HOOK_EVENT: event };
    try {
      return await Promise.all(
        handlers.map(async (handler) => {
          const started = performance.now();
          const timeoutMs = (handler.timeout ?? DEFAULT_HOOK_TIMEOUT_S) * 1000;
          const stop = signal ? { signal } : {};
          const outcome =
            handler.type === 'http'
              ? await runHttpHook(handler.url, input, { timeoutMs, hostAllowed: deps.hostAllowed, ...stop })
              : handler.type === 'script'
                ? await deps.runScript(handler.tool, call, { timeoutMs, ...stop })
                : await runCommandHook(handler.command, input, { timeoutMs, cwd: deps.cwd, env, ...stop });
          const refuses = event === 'PreToolUse' && handler.on_failure !== 'continue';
          const label = handler.type === 'http' ? handler.url : handler.type === 'script' ? `script ${handler.tool}` : handler.command;
          const effect = interpret(event, label, outcome, Math.round(performance.now() - started), refuses);
          if (effect.run.decision === 'error') deps.log.warn('a hook failed', { event, hook: effect.run.handler, error: effect.run.message });
          return effect;
        }),
      );
    } finally {
      running -= handlers.length;
    }
  }

  function payload(tool: ToolFile, args: Record<string, unknown>, call: HookCall): Record<string, unknown> {
    const bundle = deps.bundleSlug(tool.bundleID);
    return {
      session_id: call.sessionId ?? 'toolbelt',
      cwd: deps.cwd,
      permission_mode: 'default',
      tool_name: toolNames(tool, bundle)[0],
      tool_input: args,
      toolbelt: { caller: call.caller, bundleID: tool.bundleID, bundle, toolID: tool.toolID, slug: tool.slug, version: tool.version, type: tool.type },
    };
  }

  async function runBefore(handlers: HookHandler[], tool: ToolFile, args: Record<string, unknown>, call: HookCall): Promise<BeforeCall> {
    const effects = await run('PreToolUse', handlers, payload(tool, args, call), call.signal);
    if (effects === 'busy') {
      return { runs: [], allow: false, context: [], refusal: { code: 'hook_busy', message: `Too many hooks are running at once (${MAX_RUNNING_HOOKS}): a hook may be calling tools that run hooks again. The call did not run.` } };
    }
    const runs = effects.map((effect) => effect.run);
    const context = effects.flatMap((effect) => (effect.additionalContext ? [effect.additionalContext] : []));
    const failed = effects.find((effect) => effect.refuses);
    if (failed) return { runs, allow: false, context, refusal: { code: 'hook_failed', message: `A hook before ${tool.displayName} failed, so the call did not run: ${failed.reason ?? 'no reason'}` } };
    const strictest = effects.reduce<HookEffect | null>((most, effect) => (STRICTNESS[effect.run.decision] > STRICTNESS[most?.run.decision ?? 'continue'] ? effect : most), null);
    const updated = effects.filter((effect) => effect.updatedInput).at(-1)?.updatedInput;
    const base = { runs, context, ...(updated ? { updatedInput: updated } : {}) };
    if (strictest?.run.decision === 'deny') return { ...base, allow: false, refusal: { code: 'hook_denied', message: strictest.reason ?? `A hook blocked ${tool.displayName}.` } };
    if (strictest?.run.decision === 'ask') return { ...base, allow: false, ask: strictest.reason ?? 'A hook asks for your yes before this call.' };
    return { ...base, allow: strictest?.run.decision === 'allow' };
  }

  async function runAfter(event: 'PostToolUse' | 'PostToolUseFailure', handlers: HookHandler[], tool: ToolFile, args: Record<string, unknown>, call: HookCall, result: InvokeResult): Promise<AfterCall> {
    const outcome = result.ok ? { tool_response: result.value } : { error: result.error.message, error_code: result.error.code };
    const effects = await run(event, handlers, { ...payload(tool, args, call), ...outcome }, undefined);
    if (effects === 'busy') return { runs: [], context: [] };
    return {
      runs: effects.map((effect) => effect.run),
      context: effects.flatMap((effect) => [...(effect.run.decision === 'block' && effect.reason ? [effect.reason] : []), ...(effect.additionalContext ? [effect.additionalContext] : [])]),
    };
  }

  return {
    before(tool, args, call) {
      const handlers = matching('PreToolUse', tool, call.sessionId);
      return handlers.length === 0 ? null : runBefore(handlers, tool, args, call);
    },

    after(tool, args, call, result) {
      const event = result.ok ? 'PostToolUse' : 'PostToolUseFailure';
      const handlers = matching(event, tool, call.sessionId);
      return handlers.length === 0 ? null : runAfter(event, handlers, tool, args, call, result);
    },

    async session(event, sessionId, fields, names) {
      const handlers = entriesOf(event, sessionId).filter((entry) => !names || matcherTakes(entry.matcher, names)).flatMap((entry) => entry.hooks);
      if (handlers.length === 0) return null;
      const effects = await run(event, handlers, { session_id: sessionId, cwd: deps.cwd, permission_mode: 'default', ...fields }, undefined);
      if (effects === 'busy') return { runs: [], context: [] };
      const blocked = effects.find((effect) => effect.run.decision === 'block' || effect.run.decision === 'deny');
      return {
        runs: effects.map((effect) => effect.run),
        context: effects.flatMap((effect) => (effect.additionalContext ? [effect.additionalContext] : [])),
        ...(blocked ? { block: blocked.reason ?? 'A hook stopped this.' } : {}),
      };
    },
  };
}

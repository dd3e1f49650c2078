import { ToolbeltError } from '../../shared/errors.js';
import { allCalls, type LocatedCall } from '../../shared/chat/chat-calls.js';
import type { Chat, PendingItem, ToolCall, ToolCallResult } from '../../shared/schemas/chat.js';
import type { CompletedToolCall } from '../providers/model.js';
import { syntheticCallId } from '../providers/transcript.js';
import type { Invoker } from '../tools/invoker.js';
import type { ExposedTool, ToolExposure } from '../tools/exposure.js';
import { toolKey } from '../tools/exposure.js';
import type { Caller } from '../consent/consent.js';
import { isLive } from '../consent/door.js';

export function failedResult(code: string, message: string, extra: { issues?: { path: string; message: string }[] } = {}): ToolCallResult {
  return { ok: false, error: { ...extra, code, message }, durationMs: 0, attempts: 0 };
}

/** An invocation's outcome as a chat keeps it (no response headers, no trace). */
export function findCall(chat: Chat, callId: string): LocatedCall {
  // The newest first: ids from different turns may repeat on some servers.
  const found = allCalls(chat).findLast(({ call }) => call.id === callId);
  if (!found) throw new ToolbeltError('not_found', `There is no tool call ${callId} in this chat.`);
  return found;
}

function unknownToolMessage(name: string, exposure: ToolExposure): string {
  if (exposure.deferred.has(name)) {
    return `"${name}" is one of this chat's tools but is not loaded yet. Call tool_search with what you need it for; the tools it finds can be called from your next turn.`;
  }
  const why = exposure.withheld.get(name);
  if (why) return `The tool "${name}" cannot be used now: ${why}.`;
  const names = [...exposure.byName.keys()];
  return `There is no tool named "${name}" among the tools offered to you.${names.length ? ` Available tools: ${names.join(', ')}.` : ' No tools are available.'}`;
}

/**
 * Decides what happens to a call the model (or the person) made: refused at
 * once (unknown name, arguments that are no object or break argSchema),
 * a question for the person, waiting for approval, or queued to run.
 */
export async function classifyCall(
  completed: CompletedToolCall,
  exposed: ExposedTool | undefined,
  exposure: ToolExposure,
  invoker: Invoker,
  /** Who makes the call: the conversation's model (a chat's, an agent's), or the person from the palette. */
  caller: Caller,
): Promise<ToolCall> {
  // What a model sends is untrusted: a call without an id or a name (or with a name past what is kept) is
  // still recorded, as a failed call the model reads, so the chat stays valid and opens again.
  const call: ToolCall = {
    id: typeof completed.id === 'string' && completed.id !== '' ? completed.id.slice(0, 200) : `call_${syntheticCallId()}`,
    name: typeof completed.name === 'string' ? completed.name.slice(0, 200) : '',
    args: completed.args,
    ...(completed.rawArgs !== undefined ? { rawArgs: completed.rawArgs } : {}),
    ...(typeof completed.signature === 'string' && completed.signature.length <= 200_000 ? { signature: completed.signature } : {}),
    status: 'queued',
  };
  if (!call.name) return { ...call, status: 'failed', result: failedResult('unknown_tool', 'The model called a tool without giving its name, so nothing ran. Call one of the tools offered, by its name.') };
  const denied = exposed ? undefined : exposure.denied.get(call.name);
  if (denied) {
    // Refused in advance by the person: said so to the model, which gets its next turn.
    return { ...call, status: 'denied', result: failedResult('tool_denied', `The user does not allow the tool "${call.name}" in this chat, so it did not run. Answer without it, or ask the user.`) };
  }
  if (!exposed) return { ...call, status: 'failed', result: failedResult(exposure.deferred.has(call.name) ? 'tool_not_loaded' : 'unknown_tool', unknownToolMessage(call.name, exposure)) };
  const tool = exposed.record.tool;
  call.tool = calledTool(exposed);
  if (completed.rawArgs !== undefined) {
    return {
      ...call,
      status: 'failed',
      result: failedResult('invalid_args', `The arguments for ${exposed.name} were not a JSON object: ${completed.rawArgs.slice(0, 200)}`),
    };
  }
  const issues = invoker.checkArgs(tool, call.args);
  if (issues.length > 0) {
    const described = issues.map((issue) => `${issue.path || '/'} ${issue.message}`).join('; ');
    return { ...call, status: 'failed', result: failedResult('invalid_args', `Invalid arguments for ${exposed.name}: ${described}`, { issues }) };
  }
  // A tool whose call begins with a question (the ask-user built-in) waits for the answer, kept with the call; it
  // then runs and gets that answer through its context, as it would anywhere else.
  const question = invoker.questionOf(tool, call.args);
  if (question) return { ...call, status: 'awaiting_user', question };
  // The door's rule, asked ahead: a chat's model cannot wait for the person, so its call waits in the chat (the run
  // suspends) and runs with the person's yes. A caller that can wait (an agent) is asked at the door when its call runs;
  // the person's own run (the palette) is never put to them again.
  const need = isLive(caller) ? null : invoker.approvalNeed(caller, tool, exposed.selection);
  if (need) {
    const preview = await invoker.preview(tool, call.args);
    return { ...call, status: 'awaiting_approval', approvalReason: need.reason, approvalBy: need.by, ...(preview ? { preview } : {}) };
  }
  return call;
}

/**
 * The failed call of the model's last turn whose tool has now failed `limit`
 * times in a row (its successes reset the count; other tools' calls in
 * between do not), or null. A call to a tool the chat does not have counts
 * under the name the model used.
 */
export function repeatedFailure(chat: Chat, limit: number): ToolCall | null {
  const last = chat.messages.at(-1);
  if (last?.role !== 'assistant') return null;
  const keyOf = (call: ToolCall) => (call.tool ? toolKey(call.tool) : `name:${call.name}`);
  const calls = allCalls(chat).map(({ call }) => call);
  for (const failed of last.toolCalls.filter((call) => call.status === 'failed')) {
    const key = keyOf(failed);
    let inARow = 0;
    for (let at = calls.length - 1; at >= 0 && inARow < limit; at--) {
      const call = calls[at]!;
      if (keyOf(call) !== key || call.status === 'queued' || call.status === 'running') continue;
      if (call.status !== 'failed') break;
      inARow++;
    }
    if (inARow >= limit) return failed;
  }
  return null;
}

/** What a conversation waiting for the person waits for: an approval first, else an answer. */
export function waitingStatus(waiting: PendingItem[]): 'awaiting_approval' | 'awaiting_user' {
  return waiting.some((item) => item.kind === 'approval') ? 'awaiting_approval' : 'awaiting_user';
}

/** The tool a call's name maps to, as a call names it: its address, its title and its bundle's. */
export function calledTool(exposed: ExposedTool): NonNullable<ToolCall['tool']> {
  const tool = exposed.record.tool;
  return { bundleID: tool.bundleID, slug: tool.slug, version: tool.version, displayName: tool.displayName, bundleName: exposed.bundleName };
}

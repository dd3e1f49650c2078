import { ToolbeltError } from '../../shared/errors.js';
import type { Chat, ToolCall } from '../../shared/schemas/chat.js';
import { allCalls, type LocatedCall } from '../../shared/chat/chat-calls.js';
import type { Logger } from '../log.js';
import type { ExchangeTag } from '../providers/raw-exchange.js';
import type { ToolRecord } from '../store/records.js';
import { callResult } from '../tools/call-result.js';
import type { InvokeContext, Invoker } from '../tools/invoker.js';
import { settleCall, type LoopHost } from './loop-host.js';
import { failedResult } from './tool-calls.js';
import { selectionOf } from '../tools/exposure.js';
import { PERSON } from '../consent/consent.js';

/** A settled call's status: a refusal by the person (at the door) is a denial, as one in the chat's own dialog is. */
function statusOf(result: ToolCall['result'] & object, signal: AbortSignal): ToolCall['status'] {
  if (result.ok) return 'succeeded';
  if (signal.aborted) return 'cancelled';
  return result.error.code === 'denied' || result.error.code === 'tool_denied' ? 'denied' : 'failed';
}

export interface CallRunnerDeps {
  findTool: (bundleID: string, slug: string, version: string) => Promise<ToolRecord | undefined>;
  invoker: Invoker;
  log: Logger;
}

/**
 * Runs a conversation's queued calls: each marked running and saved before
 * it runs (after a crash it is never run again), all at once when the
 * conversation allows, its progress and result told to the host.
 */
export class CallRunner {
  constructor(
    private readonly deps: CallRunnerDeps,
    private readonly host: LoopHost,
    /** What the loop itself hands every call (tool search over the conversation's tools). */
    private readonly loopContext: (chat: Chat) => Partial<InvokeContext> = () => ({}),
  ) {}

  /** Runs every queued call (all at once when the chat allows), until none is left. */
  async runQueued(chat: Chat, signal: AbortSignal, exchangeTag?: ExchangeTag): Promise<{ failed: ToolCall | null; waiting: boolean }> {
    let failed: ToolCall | null = null;
    for (;;) {
      const queued = allCalls(chat).filter(({ call }) => call.status === 'queued');
      if (queued.length === 0 || signal.aborted) break;
      this.host.spend('toolCalls', queued.length);
      const run = async (located: LocatedCall) => {
        await this.runCall(chat, located, signal, exchangeTag);
        if (located.call.status === 'failed') failed ??= located.call;
      };
      if (chat.parallelToolCalls) await Promise.all(queued.map(run));
      else for (const located of queued) if (!signal.aborted) await run(located);
    }
    const waiting = allCalls(chat).some(({ call }) => call.status === 'awaiting_approval' || call.status === 'awaiting_user');
    return { failed, waiting };
  }

  /** An MCP task the call follows: one made before the app restarted is followed again; a new one is kept on disk at once. */
  private taskOf(chat: Chat, messageId: string, call: ToolCall): NonNullable<InvokeContext['task']> {
    return {
      ...(call.task ? { resume: call.task } : {}),
      started: (reference) => {
        call.task = reference;
        this.host.emit(chat, { type: 'tool-call', messageId, call });
        this.host.saveInBackground(chat);
      },
    };
  }

  private async runCall(chat: Chat, { message, call }: LocatedCall, signal: AbortSignal, exchangeTag?: ExchangeTag): Promise<void> {
    call.status = 'running';
    call.startedAt = this.host.now();
    this.host.emit(chat, { type: 'tool-call', messageId: message.id, call });
    // On disk before it runs: after a crash, a "running" call is never run again.
    await this.host.save(chat);
    let result;
    try {
      const record = call.tool ? await this.deps.findTool(call.tool.bundleID, call.tool.slug, call.tool.version) : undefined;
      // Who calls, how the chat's list names the tool, and whether the person said yes to this call already (a call
      // that waited for approval keeps its reason; it is queued again only by the person's yes).
      const selection = call.tool ? selectionOf(chat.tools, call.tool) : undefined;
      const context: Omit<InvokeContext, 'signal'> = {
        ...this.host.callContext(chat),
        ...this.loopContext(chat),
        // A tool the person ran from the palette is their own run, in whichever conversation it sits.
        caller: message.role === 'tool-run' ? PERSON : this.host.caller(chat),
        ...(selection ? { selection } : {}),
        ...(call.approvalReason !== undefined ? { approved: true } : {}),
      };
      // A call that began with a question (the ask-user built-in) is answered already: the tool gets that answer.
      const answered = call.question?.answer;
      if (answered !== undefined) context.askUser = async () => answered;
      result = record
        ? callResult(await this.deps.invoker.invoke(record, { args: call.args }, { ...context, signal, onProgress: this.host.progressReporter(chat, message.id, call), task: this.taskOf(chat, message.id, call), ...(exchangeTag ? { exchangeTag } : {}) }))
        : failedResult('tool_unavailable', 'The tool no longer exists.');
    } catch (error) {
      if (!(error instanceof ToolbeltError)) this.deps.log.error('a tool call failed unexpectedly', { error: String(error) });
      result = error instanceof ToolbeltError ? failedResult(error.code, error.message) : failedResult('internal', 'The tool failed unexpectedly; the details are in the log.');
    }
    settleCall(call, result, statusOf(result, signal), this.host.now());
    this.host.emit(chat, { type: 'tool-result', messageId: message.id, call });
    this.host.saveInBackground(chat);
  }
}

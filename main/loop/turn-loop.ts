import { newUuidV7 } from '../common/uuid-v7.js';
import { ToolbeltError } from '../../shared/errors.js';
import { TOOL_ERROR_LIMIT_DEFAULT, type AssistantMessage, type Chat, type ChatMessage, type FinishReason } from '../../shared/schemas/chat.js';
import { allCalls, isUnfinished, pendingOf } from '../../shared/chat/chat-calls.js';
import { systemFor, withHookContext } from './system-prompt.js';
import { forwardAbort } from '../common/signals.js';
import type { Logger } from '../log.js';
import { ANSWER_TOOL_NAME } from '../providers/answer-tool.js';
import type { ModelProvider } from '../providers/model.js';
import { fileReaderOf, type FileReader } from '../providers/capabilities.js';
import type { ProviderSettings, ProviderStore } from '../providers/provider-store.js';
import type { ExchangeTag } from '../providers/raw-exchange.js';
import { exposeTools } from '../tools/exposure.js';
import type { Invoker } from '../tools/invoker.js';
import { resultLimits, withResultsCut } from '../tools/model-context.js';
import type { ToolResolver } from '../tools/resolver.js';
import { CallRunner, type CallRunnerDeps } from './call-runner.js';
import { ChatToolSearch, type ToolSearchDeps } from './chat-tool-search.js';
import { settleCall, type LoopHost, type SessionHooks } from './loop-host.js';
import { answerNudge, answerSchemaOf, checkAnswer } from './structured-answer.js';
import { calledTool, classifyCall, failedResult, repeatedFailure, waitingStatus } from './tool-calls.js';

export interface TurnLoopDeps extends CallRunnerDeps {
  providers: ProviderStore;
  connect: (settings: ProviderSettings) => ModelProvider;
  resolver: ToolResolver;
  invoker: Invoker;
  log: Logger;
  /** Tool search: absent, every tool is offered on every turn. */
  search?: ToolSearchDeps;
  /** The person's Stop hooks (chats; an agent's loop has none). */
  sessionHooks?: SessionHooks;
  /** The person's files in the chat's messages, read back for each request (chats; an agent's conversation has none). */
  personFiles?: { loaded(messages: readonly ChatMessage[], reader: FileReader): Promise<ChatMessage[]> };
}

/** Times Stop hooks may send the model back to work in one run: a hook that always objects ends there. */
export const MAX_STOP_CONTINUES = 3;

/**
 * The model loop, one for chats and agents: model turn → tool calls (in
 * parallel when asked) → results back to the model → … until a final
 * answer, maxTurns, an error, a cancel, or a call that waits for the person
 * (approval or a question) that the host leaves waiting; then how the run
 * ends. What differs between a chat and an agent is the host's (`loop-host.ts`).
 */
export class TurnLoop {
  private readonly calls: CallRunner;

  private readonly search: ChatToolSearch | null;

  constructor(
    private readonly deps: TurnLoopDeps,
    private readonly host: LoopHost,
  ) {
    this.search = deps.search ? new ChatToolSearch(deps.search, deps.resolver) : null;
    this.calls = new CallRunner(deps, host, (chat) => (this.search ? { searchTools: this.search.searcher(chat) } : {}));
  }

  async drive(chat: Chat, runId: string, signal: AbortSignal, turnEvenIfAnswered: boolean, exchangeTag?: ExchangeTag): Promise<void> {
    let forceTurn = turnEvenIfAnswered;
    /** Said to the model on its next turn only (an answer that did not match the schema), never kept in the chat. */
    let nudge: string | undefined;
    try {
      for (;;) {
        const { failed, waiting } = await this.calls.runQueued(chat, signal, exchangeTag);
        this.host.throwIfSaveFailed(chat);
        if (signal.aborted) return await this.endCancelled(chat, runId);
        if (failed && chat.onToolError === 'halt') {
          for (const { call } of allCalls(chat)) {
            if (call.status === 'awaiting_approval' || call.status === 'awaiting_user') {
              settleCall(call, failedResult('cancelled', 'Not run: the run stopped at a failed tool.'), 'cancelled', this.host.now());
            }
          }
          const message = `Stopped because ${failed.tool?.displayName ?? failed.name} failed (${failed.result && !failed.result.ok ? failed.result.error.code : 'error'}); this chat halts on tool errors.`;
          return await this.end(chat, runId, 'tool_error', { message });
        }
        // Only failures of this run's own turns: Continue after such a stop gives the model another turn first.
        const repeated = chat.onToolError === 'halt_after' && (chat.run?.turn ?? 0) > 0 ? repeatedFailure(chat, chat.toolErrorLimit ?? TOOL_ERROR_LIMIT_DEFAULT) : null;
        if (repeated) {
          const message = `Stopped because ${repeated.tool?.displayName ?? repeated.name} failed ${chat.toolErrorLimit ?? TOOL_ERROR_LIMIT_DEFAULT} times in a row; this chat stops when one tool keeps failing. Send a message to go on.`;
          return await this.end(chat, runId, 'tool_error', { message });
        }
        if (waiting) {
          if (await this.host.settleWaiting(chat, signal)) continue;
          return await this.suspend(chat, runId);
        }
        if (chat.run?.kind === 'tool' || (!needsModelTurn(chat) && !forceTurn)) return await this.end(chat, runId, 'stop');
        forceTurn = false;
        const run = chat.run!;
        if (run.turn >= chat.maxTurns) {
          return await this.end(chat, runId, 'max_turns', {
            message: `Stopped after ${chat.maxTurns} model turn${chat.maxTurns === 1 ? '' : 's'} (the chat's maxTurns). Send a message to continue.`,
          });
        }
        this.host.spend('modelRequests', 1);
        run.turn++;
        const { finish, answer } = await this.modelTurn(chat, signal, nudge, exchangeTag);
        nudge = undefined;
        this.host.throwIfSaveFailed(chat);
        if (signal.aborted) return await this.endCancelled(chat, runId);
        const last = chat.messages.at(-1) as AssistantMessage;
        if (last.toolCalls.length === 0) {
          if (finish === 'length') return await this.end(chat, runId, 'length', { message: 'The model stopped at its output limit; the answer may be cut off.' });
          const schema = answerSchemaOf(chat);
          if (!schema) {
            const objection = await this.stopHooks(chat, last, run);
            if (objection === null) return await this.end(chat, runId, 'stop');
            nudge = objection;
            forceTurn = true;
            continue;
          }
          const checked = checkAnswer(schema, last, answer);
          if (checked.ok) {
            last.answer = { value: checked.value };
            // An answer given as a tool's input has no text: its JSON is the text the model reads later, and a person copies.
            if (!last.content.trim()) last.content = JSON.stringify(checked.value, null, 2);
            return await this.end(chat, runId, 'stop');
          }
          last.answerProblem = checked.problems.slice(0, 2_000);
          if (!run.answerRetried) {
            run.answerRetried = true;
            nudge = answerNudge(schema, checked.problems);
            forceTurn = true;
            continue;
          }
          const message = `The model's answer does not match the answer schema, also when asked again: ${checked.problems}. Send a message to try again, or change the schema in Chat settings.`;
          return await this.end(chat, runId, 'error', { error: { code: 'answer_invalid', message }, message });
        }
      }
    } catch (error) {
      if (signal.aborted) return this.endCancelled(chat, runId);
      const failure =
        error instanceof ToolbeltError ? error : new ToolbeltError('internal', 'Something went wrong in the chat engine; the details are in the log.');
      if (!(error instanceof ToolbeltError)) this.deps.log.error('chat run failed', { chatId: chat.id, error: String(error) });
      const last = chat.messages.at(-1);
      if (last?.role === 'assistant' && !last.finishReason) last.finishReason = 'error';
      this.host.emit(chat, { type: 'error', code: failure.code, message: failure.message });
      return this.end(chat, runId, 'error', { error: { code: failure.code, message: failure.message }, message: failure.message });
    }
  }

  /**
   * The model says it is done: the person's Stop hooks may send it back to work (`decision: "block"`, or exit 2,
   * with the reason it reads on its next turn only), at most MAX_STOP_CONTINUES times a run; the hook is told
   * when it already did (`stop_hook_active`), as Claude Code tells it.
   */
  private async stopHooks(chat: Chat, last: AssistantMessage, run: NonNullable<Chat['run']>): Promise<string | null> {
    const continued = run.stopContinues ?? 0;
    const stop = this.host.stopHook(chat);
    const fields = { ...stop.fields, stop_hook_active: continued > 0, last_assistant_message: last.content.slice(0, 20_000) };
    const outcome = await this.deps.sessionHooks?.run(stop.event, stop.sessionId, fields, stop.names);
    // Kept with the message they judged: the person sees which ran and what each said, as under their own messages.
    if (outcome?.runs.length) last.hooks = [...(last.hooks ?? []), ...outcome.runs].slice(-400);
    if (!outcome?.block || continued >= MAX_STOP_CONTINUES) return null;
    run.stopContinues = continued + 1;
    return `[From the person's hooks, before you finish: ${outcome.block}]`;
  }

  private async modelTurn(chat: Chat, signal: AbortSignal, nudge: string | undefined, exchangeTag: ExchangeTag | undefined): Promise<{ finish: string; answer?: { value: unknown } }> {
    const settings = await this.deps.providers.require(chat.providerId);
    const provider = this.deps.connect(settings);
    const exposure = this.search ? await this.search.expose(chat, provider.nativeToolSearch?.(chat.model) === true) : await exposeTools(chat.tools, this.deps.resolver);
    const answerSchema = answerSchemaOf(chat);
    if (answerSchema && exposure.byName.has(ANSWER_TOOL_NAME)) {
      throw new ToolbeltError('conflict', `A tool of this chat is offered to the model as "${ANSWER_TOOL_NAME}", the name a structured answer uses. Give it another name in the tools panel, or make the answer text again.`);
    }
    const history = this.deps.personFiles ? await this.deps.personFiles.loaded(chat.messages, fileReaderOf(settings, provider.learned?.(chat.model))) : chat.messages.slice();
    if (nudge) history.push({ id: newUuidV7(), role: 'user', content: nudge, createdAt: this.host.now() });
    const message: AssistantMessage = { id: newUuidV7(), role: 'assistant', content: '', toolCalls: [], model: chat.model, createdAt: this.host.now() };
    chat.messages.push(message);
    this.host.emit(chat, { type: 'message', message });
    let finish = 'other';
    // Each request gets a signal of its own: the SDKs never take back the listener they put on one, and a run's
    // signal lives for all its turns (200 across an agent run's nested agents).
    const request = new AbortController();
    const unfollow = forwardAbort(signal, request);
    const system = systemFor(withHookContext(chat), exposure, (tools) => this.deps.invoker.instructionsOf(tools));
    const stream = provider.stream({
      model: chat.model,
      ...(system ? { system } : {}),
      ...(chat.temperature !== undefined ? { temperature: chat.temperature } : {}),
      messages: withResultsCut(history, resultLimits(chat.tools.selected)),
      tools: exposure.definitions,
      parallelToolCalls: chat.parallelToolCalls,
      ...(answerSchema ? { answerSchema } : {}),
      signal: request.signal,
      ...(exchangeTag ? { exchangeTag } : {}),
    });
    let answer: { value: unknown } | undefined;
    try {
      for await (const event of stream) {
        switch (event.type) {
          case 'text-delta':
            message.content += event.text;
            this.host.emit(chat, { type: 'text-delta', messageId: message.id, text: event.text });
            break;
          case 'tool-call-delta': {
            const exposed = exposure.byName.get(event.name);
            const tool = exposed ? { tool: calledTool(exposed) } : {};
            this.host.emit(chat, { type: 'tool-call-delta', messageId: message.id, callId: event.callId, name: event.name, argsDelta: event.argsDelta, ...tool });
            break;
          }
          case 'tool-call': {
            const call = await classifyCall(event.call, exposure.byName.get(event.call.name), exposure, this.deps.invoker, this.host.caller(chat));
            message.toolCalls.push(call);
            this.host.emit(chat, { type: 'tool-call', messageId: message.id, call });
            if (call.status === 'failed') this.host.emit(chat, { type: 'tool-result', messageId: message.id, call });
            this.host.announcePending(chat, message.id, call);
            break;
          }
          case 'usage':
            this.host.emit(chat, { type: 'usage', ...(event.inputTokens !== undefined ? { inputTokens: event.inputTokens } : {}), ...(event.outputTokens !== undefined ? { outputTokens: event.outputTokens } : {}) });
            break;
          case 'answer':
            answer = { value: event.value };
            break;
          case 'server-block':
            (message.serverBlocks ??= []).push(event.block);
            break;
          case 'finish':
            finish = event.reason;
            break;
        }
      }
    } finally {
      unfollow();
    }
    message.finishReason = finish;
    await this.host.save(chat);
    return { finish, ...(answer ? { answer } : {}) };
  }

  private async suspend(chat: Chat, runId: string): Promise<void> {
    chat.status = waitingStatus(pendingOf(chat));
    const saved = this.host.release(chat, runId);
    this.host.emit(chat, { type: 'finish', reason: 'suspended', status: chat.status });
    await saved;
  }

  private async end(chat: Chat, runId: string, reason: FinishReason, outcome: { message?: string; error?: { code: string; message: string } } = {}): Promise<void> {
    chat.status = reason === 'error' ? 'error' : 'idle';
    delete chat.run;
    chat.lastRun = { runId, reason, ...outcome, at: this.host.now() };
    // The chat is written once, as it ends, and the lock goes after that write.
    const saved = this.host.release(chat, runId);
    this.host.emit(chat, { type: 'finish', reason, status: chat.status, ...(outcome.message ? { message: outcome.message } : {}) });
    // The run is over either way; a save that fails now is told to the window and the log, not thrown at nobody.
    await saved.catch((error: unknown) => {
      if (outcome.error?.code === 'storage_failed') this.deps.log.warn('the chat is still not saved', { chatId: chat.id, error: String(error) });
      else this.host.reportSaveFailure(chat, error);
    });
  }

  endCancelled(chat: Chat, runId: string): Promise<void> {
    for (const { message, call } of allCalls(chat)) {
      if (!isUnfinished(call)) continue;
      settleCall(call, failedResult('cancelled', 'Cancelled by the user.'), 'cancelled', this.host.now());
      this.host.emit(chat, { type: 'tool-result', messageId: message.id, call });
    }
    const last = chat.messages.at(-1);
    if (last?.role === 'assistant' && !last.finishReason) last.finishReason = 'cancelled';
    return this.end(chat, runId, 'cancelled', { message: 'Stopped.' });
  }
}

/** The model speaks next after a user message or after its own tool calls. */
function needsModelTurn(chat: Chat): boolean {
  const last = chat.messages.findLast((message) => message.role !== 'tool-run');
  if (!last) return false;
  return last.role === 'user' || (last.role === 'assistant' && last.toolCalls.length > 0 && !last.toolCalls.some(isUnfinished));
}

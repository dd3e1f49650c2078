import { v7 as uuidv7 } from 'uuid';
import { ToolbeltError } from '../../shared/errors.js';
import { TOOL_ERROR_LIMIT_DEFAULT, type AssistantMessage, type MessageAttachment, type Chat, type PendingItem, type ChatStreamEvent, type FinishReason, type ToolCall, type ToolProgress, type ToolRunMessage, type UserMessage } from '../../shared/schemas/chat.js';
import type { EventBus } from '../api/event-bus.js';
import type { Clock } from '../common/clock.js';
import type { Logger } from '../log.js';
import type { ModelProvider } from '../providers/model.js';
import type { ProviderSettings, ProviderStore } from '../providers/provider-store.js';
import { syntheticCallId } from '../providers/transcript.js';
import { inBackground } from '../common/background.js';
import { storageFailure } from '../common/storage-errors.js';
import { tryHoldFileLock } from '../common/file-lock.js';
import type { ToolStore } from '../store/tool-store.js';
import type { Invoker } from '../tools/invoker.js';
import { requireReady, type ToolResolver } from '../tools/resolver.js';
import type { ChatFiles } from './chat-files.js';
import { allCalls, isUnfinished, pendingOf, type LocatedCall } from '../../shared/chat-calls.js';
import { callResult } from '../tools/call-result.js';
import { classifyCall, failedResult, findCall, repeatedFailure } from './tool-calls.js';
import { recordExchanges, type ExchangeTag } from '../providers/raw-exchange.js';
import { ExchangeBook } from './exchange-book.js';
import { ANSWER_TOOL_NAME } from '../providers/answer-tool.js';
import { answerNudge, answerSchemaOf, checkAnswer } from './structured-answer.js';
import { resultLimits, withResultsCut } from '../tools/model-context.js';
import { exposeTools, providerSafeName, toolKey, type ExposedTool, type ToolExposure } from '../tools/exposure.js';

export interface ChatEngineDeps {
  files: ChatFiles;
  providers: ProviderStore;
  connect: (settings: ProviderSettings) => ModelProvider;
  store: ToolStore;
  invoker: Invoker;
  resolver: ToolResolver;
  /** The lock file that says which process runs a chat. */
  lockFor: (chatId: string) => string;
  events: EventBus;
  clock: Clock;
  log: Logger;
}

interface ActiveRun {
  runId: string;
  controller: AbortController;
  done: Promise<void>;
  /** Releases the cross-process lock this process holds while it runs the chat. */
  lock: () => Promise<void>;
  /** A save made in the background failed: the run ends at its next step rather than go on unsaved. */
  saveFailure?: unknown;
}

const DEFAULT_TITLE = 'New chat';
/** Progress reaches the windows at most this often. */
const PROGRESS_INTERVAL_MS = 100;

const chatSaveFailure = (error: unknown) => storageFailure(error, 'Could not save the chat', 'send again');

/**
 * The conversation loop: model turn → tool calls (in parallel when asked)
 * → results back to the model → … until a final answer, maxTurns, an
 * error, a cancel, or a call that waits for the person (approval or a
 * question). Every step is saved, so a suspended run survives a restart
 * and no tool that ran runs again.
 */
export class ChatEngine {
  private readonly active = new Map<string, ActiveRun>();
  private readonly releasing = new Map<string, Promise<void>>();
  /** What each chat's last runs sent to the model server and got back (the raw exchange view). */
  readonly exchanges: ExchangeBook;

  constructor(private readonly deps: ChatEngineDeps) {
    this.exchanges = new ExchangeBook(() => this.now());
  }

  isRunning(chatId: string): boolean {
    return this.active.has(chatId);
  }

  /**
   * Runs that were going when a core stopped: their running tools may have
   * run, so they are not run again. A run another live process holds (its
   * lock is fresh) is left to it.
   */
  async recover(): Promise<void> {
    for (const chat of this.deps.files.loaded()) {
      if (chat.status !== 'running') continue;
      const release = await tryHoldFileLock(this.deps.lockFor(chat.id));
      if (!release) continue;
      try {
        this.markInterrupted(chat);
        await this.save(chat);
      } finally {
        await release();
      }
    }
  }

  private markInterrupted(chat: Chat): void {
    for (const { call } of allCalls(chat)) {
      if (call.status === 'running') this.settle(call, failedResult('interrupted', 'The app stopped while this tool was running; it may or may not have finished.'), 'failed');
      if (call.status === 'queued') this.settle(call, failedResult('interrupted', 'The app stopped before this call ran.'), 'cancelled');
    }
    for (const message of chat.messages) if (message.role === 'assistant' && !message.finishReason) message.finishReason = 'interrupted';
    const waiting = pendingOf(chat);
    if (waiting.length > 0) chat.status = waitingStatus(waiting);
    else {
      chat.status = 'error';
      chat.lastRun = {
        runId: chat.run?.runId ?? uuidv7(),
        reason: 'error',
        error: { code: 'interrupted', message: 'The app stopped during this run. Send a message to continue.' },
        at: this.now(),
      };
      delete chat.run;
    }
  }

  /**
   * The lock that makes this process the one running the chat. A chat marked
   * running that nobody holds was left by a process that died: it is marked
   * interrupted, and the caller may go on.
   */
  private async claim(chat: Chat): Promise<() => Promise<void>> {
    // A run that just stopped here may still be letting go of the lock.
    await this.releasing.get(chat.id)?.catch(() => undefined);
    const release = await tryHoldFileLock(this.deps.lockFor(chat.id));
    if (!release) throw new ToolbeltError('chat_busy', 'This chat is running in another Toolbelt window. Wait for it there, or stop it there.');
    if (chat.status === 'running' && !this.active.has(chat.id)) this.markInterrupted(chat);
    return release;
  }

  // ── runs ────────────────────────────────────────────────────────────

  /** The person's message, then the model's turn; `replaces` drops one of their messages and all after it first. */
  async send(chatId: string, content: string, attachments: MessageAttachment[] = [], replaces?: string, answerSchema?: Record<string, unknown>): Promise<{ runId: string; messageId: string }> {
    if (content.trim() === '' && attachments.length === 0) throw new ToolbeltError('invalid_params', 'Type a message, or attach a resource or a prompt.');
    const message: UserMessage = { id: uuidv7(), role: 'user', content, ...(attachments.length ? { attachments } : {}), createdAt: this.now() };
    const { runId } = await this.startModelRun(chatId, (chat) => {
      const rewound = replaces === undefined ? [] : this.rewind(chat, userMessageIndex(chat, replaces));
      if (chat.title === DEFAULT_TITLE && !chat.messages.some((entry) => entry.role === 'user')) chat.title = titleFrom(content.trim() ? content : attachments[0]!.title);
      chat.messages.push(message);
      return [...rewound, { type: 'message', message }];
    }, answerSchema ? { answerSchema } : {});
    return { runId, messageId: message.id };
  }

  /** The last message of the person's answered afresh: what followed it leaves the chat. */
  regenerate(chatId: string): Promise<{ runId: string }> {
    return this.startModelRun(chatId, (chat) => {
      const last = chat.messages.findLastIndex((message) => message.role === 'user');
      if (last === -1) throw new ToolbeltError('conflict', 'There is no message of yours to answer again. Send one first.');
      return this.rewind(chat, last + 1);
    });
  }

  /** Another model turn on the chat as it stands: after Stop, an error, a cut-off answer or the turn limit. */
  continueRun(chatId: string): Promise<{ runId: string }> {
    return this.startModelRun(
      chatId,
      (chat) => {
        if (chat.messages.length === 0) throw new ToolbeltError('conflict', 'There is nothing to continue yet. Send a message first.');
        return [];
      },
      { turnEvenIfAnswered: true },
    );
  }

  /**
   * Claims the chat, applies `change` (which may refuse), and starts a run
   * whose first step is the model's turn. The events `change` returns reach
   * the windows once the run exists.
   */
  private async startModelRun(
    chatId: string,
    change: (chat: Chat) => ChatStreamEvent[],
    options: { turnEvenIfAnswered?: boolean; answerSchema?: Record<string, unknown> } = {},
  ): Promise<{ runId: string }> {
    const chat = await this.deps.files.load(chatId);
    if (this.active.has(chatId)) refuseBusy(chat);
    if (!chat.model.trim()) throw new ToolbeltError('invalid_params', 'Pick a model for this chat first: the Model field at the top of the chat lists the provider’s models.');
    await this.deps.providers.require(chat.providerId);
    const lock = await this.claim(chat);
    let events: ChatStreamEvent[];
    try {
      refuseBusy(chat);
      events = change(chat);
    } catch (error) {
      await lock();
      throw error;
    }
    const runId = this.beginRun(chat, 'model', options.answerSchema);
    for (const event of events) this.emit(chat, event);
    this.start(chat, runId, lock, options.turnEvenIfAnswered === true);
    return { runId };
  }

  /** Drops the messages from `index` on; says so to the windows through the returned event. */
  private rewind(chat: Chat, index: number): ChatStreamEvent[] {
    const first = chat.messages[index];
    if (!first) return [];
    chat.messages.splice(index);
    return [{ type: 'rewind', fromMessageId: first.id }];
  }

  /** A tool run from the "+" palette: through the approval policy, then kept in the chat. */
  async runTool(
    chatId: string,
    ref: { bundleID: string; slug: string; version: string },
    args: Record<string, unknown>,
    shareWithModel: boolean,
  ): Promise<{ messageId: string; callId: string }> {
    const chat = await this.deps.files.load(chatId);
    refuseBusy(chat);
    const { record, bundle } = requireReady(await this.deps.resolver.resolve(ref));
    const name = providerSafeName(ref);
    const selection = chat.tools.selected.find((entry) => toolKey(entry) === toolKey(ref)) ?? { ...ref };
    const exposed: ExposedTool = {
      name,
      selection,
      record,
      bundleName: bundle.bundle.displayName,
      definition: { name, description: record.tool.description, parameters: record.tool.argSchema },
    };
    const exposure: ToolExposure = { byName: new Map([[name, exposed]]), definitions: [], withheld: new Map(), denied: new Map() };
    const call = await classifyCall(chat, { id: `run_${syntheticCallId()}`, name, args }, exposed, exposure, this.deps.invoker, true);
    if (call.status === 'failed' && call.result && !call.result.ok) {
      const { code, message, issues } = call.result.error;
      throw new ToolbeltError(code === 'invalid_args' ? 'invalid_args' : 'invalid_params', message, issues ? { issues } : undefined);
    }
    const lock = await this.claim(chat);
    const message: ToolRunMessage = { id: uuidv7(), role: 'tool-run', call, shareWithModel, createdAt: this.now() };
    chat.messages.push(message);
    const runId = this.beginRun(chat, 'tool');
    this.emit(chat, { type: 'message', message });
    this.announcePending(chat, message.id, call);
    this.start(chat, runId, lock);
    return { messageId: message.id, callId: call.id };
  }

  async approve(chatId: string, callId: string, decision: 'allow' | 'allow_always' | 'deny', args?: Record<string, unknown>, note?: string): Promise<Chat> {
    const chat = await this.deps.files.load(chatId);
    return this.decide(chat, async () => {
      const { message, call } = this.waitingCall(chat, callId, 'awaiting_approval');
      if (decision === 'deny') {
        if (note) call.note = note;
        this.settle(call, failedResult('denied', `The user denied this call${note ? `: ${note}` : '.'}`), 'denied');
        this.emit(chat, { type: 'tool-result', messageId: message.id, call });
      } else {
        if (args) {
          const record = call.tool ? await this.deps.store.findTool(call.tool.bundleID, call.tool.slug, call.tool.version) : undefined;
          if (!record || record.kind !== 'valid') throw new ToolbeltError('tool_unavailable', 'The tool of this call no longer exists; deny the call instead.');
          const issues = this.deps.invoker.checkArgs(record.tool, args);
          if (issues.length > 0) {
            throw new ToolbeltError('invalid_args', `The edited arguments are invalid: ${issues.map((issue) => `${issue.path || '/'} ${issue.message}`).join('; ')}`, { issues });
          }
          call.args = args;
          call.note = 'The user edited the arguments before allowing the call.';
          delete call.preview;
        }
        call.status = 'queued';
        if (decision === 'allow_always' && call.tool) {
          const key = toolKey(call.tool);
          if (!chat.alwaysAllowed.includes(key)) chat.alwaysAllowed.push(key);
          for (const other of allCalls(chat)) {
            if (other.call.status === 'awaiting_approval' && other.call.tool && toolKey(other.call.tool) === key) other.call.status = 'queued';
          }
        }
      }
    });
  }

  async answer(chatId: string, callId: string, answer: string): Promise<Chat> {
    const chat = await this.deps.files.load(chatId);
    return this.decide(chat, () => {
      const { message, call } = this.waitingCall(chat, callId, 'awaiting_user');
      this.settle(call, { ok: true, value: { answer }, durationMs: 0, attempts: 0 }, 'succeeded');
      this.emit(chat, { type: 'tool-result', messageId: message.id, call });
    });
  }

  /** Stops the stream and running tools; every unfinished call gets a result so the history stays valid. */
  async cancel(chatId: string): Promise<Chat> {
    const chat = await this.deps.files.load(chatId);
    const active = this.active.get(chatId);
    if (active) {
      active.controller.abort();
      await active.done;
    } else if (chat.run) {
      const lock = await this.claim(chat);
      try {
        if (chat.run) await this.endCancelled(chat, chat.run.runId);
      } finally {
        await lock();
      }
    }
    return chat;
  }

  /** Cancels whatever runs in the chat, then waits for it to settle (delete, shutdown). */
  async stop(chatId: string): Promise<void> {
    const active = this.active.get(chatId);
    if (!active) return;
    active.controller.abort();
    await active.done;
  }

  async close(): Promise<void> {
    await Promise.all([...this.active.keys()].map((chatId) => this.stop(chatId)));
  }

  // ── the loop ────────────────────────────────────────────────────────

  private beginRun(chat: Chat, kind: 'model' | 'tool', answerSchema?: Record<string, unknown>): string {
    const runId = uuidv7();
    chat.status = 'running';
    chat.run = { runId, kind, turn: 0, startedAt: this.now(), ...(answerSchema ? { answerSchema } : {}) };
    this.saveInBackground(chat);
    return runId;
  }

  private start(chat: Chat, runId: string, lock: () => Promise<void>, turnEvenIfAnswered = false): void {
    const controller = new AbortController();
    const run: ActiveRun = { runId, controller, done: Promise.resolve(), lock };
    this.active.set(chat.id, run);
    this.deps.files.own(chat.id);
    // Every model request of the run goes in its raw exchange: its own turns, and those of agents its tool calls run.
    run.done = recordExchanges(this.exchanges.forRun(chat.id, runId), (exchangeTag) =>
      this.drive(chat, runId, controller.signal, turnEvenIfAnswered, exchangeTag),
    ).catch((error: unknown) => {
      this.deps.log.error('a chat run failed unexpectedly', { chatId: chat.id, error: String(error) });
    });
  }

  /**
   * An answer to a waiting call: made under this process's claim on the chat
   * (taken first, so nothing changes here when another process runs it),
   * then the suspended run goes on.
   */
  private async decide(chat: Chat, change: () => void | Promise<void>): Promise<Chat> {
    const lock = this.active.has(chat.id) ? null : await this.claim(chat);
    try {
      await change();
    } catch (error) {
      await lock?.();
      throw error;
    }
    if (lock && chat.run) {
      chat.status = 'running';
      this.start(chat, chat.run.runId, lock);
      await this.save(chat);
    } else {
      await this.save(chat);
      await lock?.();
    }
    return chat;
  }

  private async drive(chat: Chat, runId: string, signal: AbortSignal, turnEvenIfAnswered: boolean, exchangeTag: ExchangeTag): Promise<void> {
    let forceTurn = turnEvenIfAnswered;
    /** Said to the model on its next turn only (an answer that did not match the schema), never kept in the chat. */
    let nudge: string | undefined;
    try {
      for (;;) {
        const { failed, waiting } = await this.runQueuedCalls(chat, signal, exchangeTag);
        this.throwIfSaveFailed(chat);
        if (signal.aborted) return await this.endCancelled(chat, runId);
        if (failed && chat.onToolError === 'halt') {
          for (const { call } of allCalls(chat)) {
            if (call.status === 'awaiting_approval' || call.status === 'awaiting_user') {
              this.settle(call, failedResult('cancelled', 'Not run: the run stopped at a failed tool.'), 'cancelled');
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
        if (waiting) return await this.suspend(chat, runId);
        if (chat.run?.kind === 'tool' || (!needsModelTurn(chat) && !forceTurn)) return await this.end(chat, runId, 'stop');
        forceTurn = false;
        const run = chat.run!;
        if (run.turn >= chat.maxTurns) {
          return await this.end(chat, runId, 'max_turns', {
            message: `Stopped after ${chat.maxTurns} model turn${chat.maxTurns === 1 ? '' : 's'} (the chat's maxTurns). Send a message to continue.`,
          });
        }
        run.turn++;
        const { finish, answer } = await this.modelTurn(chat, signal, nudge, exchangeTag);
        nudge = undefined;
        this.throwIfSaveFailed(chat);
        if (signal.aborted) return await this.endCancelled(chat, runId);
        const last = chat.messages.at(-1) as AssistantMessage;
        if (last.toolCalls.length === 0) {
          if (finish === 'length') return await this.end(chat, runId, 'length', { message: 'The model stopped at its output limit; the answer may be cut off.' });
          const schema = answerSchemaOf(chat);
          if (!schema) return await this.end(chat, runId, 'stop');
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
      this.emit(chat, { type: 'error', code: failure.code, message: failure.message });
      return this.end(chat, runId, 'error', { error: { code: failure.code, message: failure.message }, message: failure.message });
    }
  }

  private async modelTurn(chat: Chat, signal: AbortSignal, nudge: string | undefined, exchangeTag: ExchangeTag): Promise<{ finish: string; answer?: { value: unknown } }> {
    const settings = await this.deps.providers.require(chat.providerId);
    const provider = this.deps.connect(settings);
    const exposure = await exposeTools(chat.tools, this.deps.resolver);
    const answerSchema = answerSchemaOf(chat);
    if (answerSchema && exposure.byName.has(ANSWER_TOOL_NAME)) {
      throw new ToolbeltError('conflict', `A tool of this chat is offered to the model as "${ANSWER_TOOL_NAME}", the name a structured answer uses. Give it another name in the tools panel, or make the answer text again.`);
    }
    const history = chat.messages.slice();
    if (nudge) history.push({ id: uuidv7(), role: 'user', content: nudge, createdAt: this.now() });
    const message: AssistantMessage = { id: uuidv7(), role: 'assistant', content: '', toolCalls: [], model: chat.model, createdAt: this.now() };
    chat.messages.push(message);
    this.emit(chat, { type: 'message', message });
    let finish = 'other';
    const stream = provider.stream({
      model: chat.model,
      ...(chat.system ? { system: chat.system } : {}),
      ...(chat.temperature !== undefined ? { temperature: chat.temperature } : {}),
      messages: withResultsCut(history, resultLimits(chat.tools.selected)),
      tools: exposure.definitions,
      parallelToolCalls: chat.parallelToolCalls,
      ...(answerSchema ? { answerSchema } : {}),
      signal,
      exchangeTag,
    });
    let answer: { value: unknown } | undefined;
    for await (const event of stream) {
      switch (event.type) {
        case 'text-delta':
          message.content += event.text;
          this.emit(chat, { type: 'text-delta', messageId: message.id, text: event.text });
          break;
        case 'tool-call-delta':
          this.emit(chat, { type: 'tool-call-delta', messageId: message.id, callId: event.callId, name: event.name, argsDelta: event.argsDelta });
          break;
        case 'tool-call': {
          const call = await classifyCall(chat, event.call, exposure.byName.get(event.call.name), exposure, this.deps.invoker);
          message.toolCalls.push(call);
          this.emit(chat, { type: 'tool-call', messageId: message.id, call });
          if (call.status === 'failed') this.emit(chat, { type: 'tool-result', messageId: message.id, call });
          this.announcePending(chat, message.id, call);
          break;
        }
        case 'usage':
          this.emit(chat, { type: 'usage', ...(event.inputTokens !== undefined ? { inputTokens: event.inputTokens } : {}), ...(event.outputTokens !== undefined ? { outputTokens: event.outputTokens } : {}) });
          break;
        case 'answer':
          answer = { value: event.value };
          break;
        case 'finish':
          finish = event.reason;
          break;
      }
    }
    message.finishReason = finish;
    await this.save(chat);
    return { finish, ...(answer ? { answer } : {}) };
  }

  /** Runs every queued call (all at once when the chat allows), until none is left. */
  private async runQueuedCalls(chat: Chat, signal: AbortSignal, exchangeTag: ExchangeTag): Promise<{ failed: ToolCall | null; waiting: boolean }> {
    let failed: ToolCall | null = null;
    for (;;) {
      const queued = allCalls(chat).filter(({ call }) => call.status === 'queued');
      if (queued.length === 0 || signal.aborted) break;
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

  private async runCall(chat: Chat, { message, call }: LocatedCall, signal: AbortSignal, exchangeTag: ExchangeTag): Promise<void> {
    call.status = 'running';
    call.startedAt = this.now();
    this.emit(chat, { type: 'tool-call', messageId: message.id, call });
    // On disk before it runs: after a crash, a "running" call is never run again.
    await this.save(chat);
    let result;
    try {
      const record = call.tool ? await this.deps.store.findTool(call.tool.bundleID, call.tool.slug, call.tool.version) : undefined;
      result = record
        ? callResult(await this.deps.invoker.invoke(record, { args: call.args }, { signal, onProgress: this.progressReporter(chat, message.id, call), exchangeTag }))
        : failedResult('tool_unavailable', 'The tool no longer exists.');
    } catch (error) {
      if (!(error instanceof ToolbeltError)) this.deps.log.error('a tool call failed unexpectedly', { error: String(error) });
      result = error instanceof ToolbeltError ? failedResult(error.code, error.message) : failedResult('internal', 'The tool failed unexpectedly; the details are in the log.');
    }
    this.settle(call, result, result.ok ? 'succeeded' : signal.aborted ? 'cancelled' : 'failed');
    this.emit(chat, { type: 'tool-result', messageId: message.id, call });
    this.saveInBackground(chat);
  }

  // ── endings ─────────────────────────────────────────────────────────

  private async suspend(chat: Chat, runId: string): Promise<void> {
    chat.status = waitingStatus(pendingOf(chat));
    const saved = this.release(chat, runId);
    this.emit(chat, { type: 'finish', reason: 'suspended', status: chat.status });
    await saved;
  }

  private async end(chat: Chat, runId: string, reason: FinishReason, outcome: { message?: string; error?: { code: string; message: string } } = {}): Promise<void> {
    chat.status = reason === 'error' ? 'error' : 'idle';
    delete chat.run;
    chat.lastRun = { runId, reason, ...outcome, at: this.now() };
    // The chat is written once, as it ends, and the lock goes after that write.
    const saved = this.release(chat, runId);
    this.emit(chat, { type: 'finish', reason, status: chat.status, ...(outcome.message ? { message: outcome.message } : {}) });
    // The run is over either way; a save that fails now is told to the window and the log, not thrown at nobody.
    await saved.catch((error: unknown) => {
      if (outcome.error?.code === 'storage_failed') this.deps.log.warn('the chat is still not saved', { chatId: chat.id, error: String(error) });
      else this.reportSaveFailure(chat, error);
    });
  }

  private endCancelled(chat: Chat, runId: string): Promise<void> {
    for (const { message, call } of allCalls(chat)) {
      if (!isUnfinished(call)) continue;
      this.settle(call, failedResult('cancelled', 'Cancelled by the user.'), 'cancelled');
      this.emit(chat, { type: 'tool-result', messageId: message.id, call });
    }
    const last = chat.messages.at(-1);
    if (last?.role === 'assistant' && !last.finishReason) last.finishReason = 'cancelled';
    return this.end(chat, runId, 'cancelled', { message: 'Stopped.' });
  }

  /** Forgets the active run, in the same tick as the decision to stop, so an answer arriving now starts a new one. */
  /** Saves the chat as it is now and lets its lock go once that is on disk; the save, for the caller to report on. */
  private release(chat: Chat, runId: string): Promise<void> {
    const saved = this.save(chat);
    const active = this.active.get(chat.id);
    if (active?.runId !== runId) return saved;
    this.active.delete(chat.id);
    this.deps.files.disown(chat.id);
    const releasing = saved
      // The caller reports a failure; the lock only must not be held forever.
      .catch(() => undefined)
      .finally(() => active.lock())
      .finally(() => {
        if (this.releasing.get(chat.id) === releasing) this.releasing.delete(chat.id);
      });
    this.releasing.set(chat.id, releasing);
    return saved;
  }

  // ── helpers ─────────────────────────────────────────────────────────

  /** A running call's progress, to every window, at most ten times a second (a chatty server cannot flood them). */
  private progressReporter(chat: Chat, messageId: string, call: ToolCall): (progress: ToolProgress) => void {
    let lastSent = 0;
    return (progress) => {
      if (call.status !== 'running') return;
      call.progress = progress;
      const now = performance.now();
      if (now - lastSent < PROGRESS_INTERVAL_MS) return;
      lastSent = now;
      this.emit(chat, { type: 'tool-call', messageId, call });
    };
  }

  private settle(call: ToolCall, result: ToolCall['result'], status: ToolCall['status']): void {
    delete call.progress;
    call.result = result;
    call.status = status;
    call.finishedAt = this.now();
  }

  private waitingCall(chat: Chat, callId: string, status: 'awaiting_approval' | 'awaiting_user'): LocatedCall {
    const located = findCall(chat, callId);
    if (located.call.status !== status) {
      const wanted = status === 'awaiting_approval' ? 'an approval' : 'an answer';
      throw new ToolbeltError('conflict', `This call is not waiting for ${wanted}; it is ${located.call.status.replace('_', ' ')}.`);
    }
    return located;
  }

  private announcePending(chat: Chat, messageId: string, call: ToolCall): void {
    if (call.status !== 'awaiting_approval' && call.status !== 'awaiting_user') return;
    const item = pendingOf(chat).find((entry) => entry.callId === call.id && entry.messageId === messageId);
    if (!item) return;
    this.emit(chat, item.kind === 'approval' ? { type: 'approval-requested', pending: item } : { type: 'ask-user', pending: item });
  }



  private emit(chat: Chat, event: ChatStreamEvent): void {
    this.deps.events.publish({ type: 'chat', chatId: chat.id, ...(chat.run ? { runId: chat.run.runId } : {}), event });
  }

  /** Writes the chat; a failure is `storage_failed` with the reason and what to do. */
  private save(chat: Chat): Promise<void> {
    chat.updatedAt = this.now();
    chat.pending = pendingOf(chat);
    this.deps.events.publish({ type: 'chats.changed', chatIds: [chat.id] });
    return this.deps.files.save(chat).catch((error: unknown) => {
      throw chatSaveFailure(error);
    });
  }

  /** A save the run does not wait for; if it fails, the run stops at its next step with the reason. */
  private saveInBackground(chat: Chat): void {
    inBackground(this.save(chat), (error) => {
      const active = this.active.get(chat.id);
      if (active) active.saveFailure ??= error;
      else this.reportSaveFailure(chat, error);
    });
  }

  private throwIfSaveFailed(chat: Chat): void {
    const failure = this.active.get(chat.id)?.saveFailure;
    if (failure !== undefined) throw chatSaveFailure(failure);
  }

  /** The window hears of a save that failed after the run could still say so; the log keeps the details. */
  private reportSaveFailure(chat: Chat, error: unknown): void {
    const failure = chatSaveFailure(error);
    this.deps.log.error('a chat could not be saved', { chatId: chat.id, error: String(error) });
    this.emit(chat, { type: 'error', code: failure.code, message: failure.message });
  }

  private now(): string {
    return this.deps.clock.now().toISOString();
  }
}

function waitingStatus(waiting: PendingItem[]): 'awaiting_approval' | 'awaiting_user' {
  return waiting.some((item) => item.kind === 'approval') ? 'awaiting_approval' : 'awaiting_user';
}

/** chat_busy, saying what the chat is waiting for, unless it is idle (or stopped by an error). */
export function refuseBusy(chat: Chat): void {
  if (chat.status === 'running') throw new ToolbeltError('chat_busy', 'This chat is still answering. Wait for it or stop it first.');
  if (chat.status === 'awaiting_approval') throw new ToolbeltError('chat_busy', 'This chat waits for you to approve or deny a tool call first.');
  if (chat.status === 'awaiting_user') throw new ToolbeltError('chat_busy', 'This chat waits for your answer to its question first.');
}

/** The model speaks next after a user message or after its own tool calls. */
function needsModelTurn(chat: Chat): boolean {
  const last = chat.messages.findLast((message) => message.role !== 'tool-run');
  if (!last) return false;
  return last.role === 'user' || (last.role === 'assistant' && last.toolCalls.length > 0 && !last.toolCalls.some(isUnfinished));
}

function userMessageIndex(chat: Chat, messageId: string): number {
  const index = chat.messages.findIndex((message) => message.id === messageId);
  if (index === -1) throw new ToolbeltError('not_found', 'That message is no longer in this chat; it may have been replaced already.');
  if (chat.messages[index]!.role !== 'user') throw new ToolbeltError('invalid_params', 'Only your own messages can be edited and sent again.');
  return index;
}

function titleFrom(content: string): string {
  const line = content.trim().split('\n')[0]!.trim();
  return line.length > 60 ? `${line.slice(0, 57)}…` : line || DEFAULT_TITLE;
}

export { DEFAULT_TITLE };

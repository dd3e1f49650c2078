import { DEFAULT_TITLE, titleFrom } from './chat-title.js';
import { newUuidV7 } from '../common/uuid-v7.js';
import { ToolbeltError } from '../../shared/errors.js';
import type { Chat, ChatStreamEvent, MessageAttachment, ToolRunMessage, UserMessage } from '../../shared/schemas/chat.js';
import { allCalls } from '../../shared/chat/chat-calls.js';
import type { EventBus } from '../api/event-bus.js';
import type { Clock } from '../common/clock.js';
import { tryHoldFileLock } from '../common/file-lock.js';
import type { Logger } from '../log.js';
import type { ModelProvider } from '../providers/model.js';
import type { ProviderSettings, ProviderStore } from '../providers/provider-store.js';
import { recordExchanges } from '../providers/raw-exchange.js';
import type { ToolStore } from '../store/tool-store.js';
import { toolKey } from '../tools/exposure.js';
import type { Invoker } from '../tools/invoker.js';
import type { ToolResolver } from '../tools/resolver.js';
import type { ChatFiles } from './chat-files.js';
import { ExchangeBook } from './exchange-book.js';
import { paletteCall } from './palette-run.js';
import { refuseBusy, RunBook, type ActiveRun } from './run-book.js';
import { failedResult, findCall } from '../loop/tool-calls.js';
import { TurnLoop } from '../loop/turn-loop.js';
import type { ToolSearchDeps } from '../loop/chat-tool-search.js';
import type { SessionHooks } from '../loop/loop-host.js';
import { hookContextOf } from '../tools/hooked-result.js';
import type { HookRun } from '../../shared/schemas/hooks.js';
import { PERSON_FILE_LIMITS, type PersonFile, type PersonFileUpload } from '../../shared/schemas/person-file.js';
import type { PersonFiles } from './person-files.js';
import type { LocatedCall } from '../../shared/chat/chat-calls.js';

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
  /** Tool search for chats with many tools. */
  search?: ToolSearchDeps;
  /** The person's hooks on a message sent (UserPromptSubmit) and on a finished turn (Stop, in the loop). */
  sessionHooks?: SessionHooks;
  /** The person's own files the messages hold, kept once each in the data folder. */
  personFiles: PersonFiles;
}


/**
 * A chat's runs from start to end: the person's message (or a palette run,
 * an approval, an answer) claims the chat, starts a run the turn loop drives
 * (`turn-loop.ts`, calls by `call-runner.ts`), and cancel or shutdown stops
 * it. Every step is saved, so a suspended run survives a restart and no tool
 * that ran runs again.
 */
export class ChatEngine {
  /** What each chat's last runs sent to the model server and got back (the raw exchange view). */
  readonly exchanges: ExchangeBook;
  /** The person's files the chats' messages hold. */
  readonly personFiles: PersonFiles;
  private readonly book: RunBook;
  private readonly loop: TurnLoop;

  constructor(private readonly deps: ChatEngineDeps) {
    this.book = new RunBook(deps);
    this.loop = new TurnLoop({ ...deps, findTool: (bundleID, slug, version) => deps.store.findTool(bundleID, slug, version) }, this.book);
    this.exchanges = new ExchangeBook(() => this.book.now());
    this.personFiles = deps.personFiles;
  }

  isRunning(chatId: string): boolean {
    return this.book.active.has(chatId);
  }

  /** Once a run that ended has let the chat go: its last save on disk and its lock released. */
  async released(chatId: string): Promise<void> {
    await this.book.releasing.get(chatId)?.catch(() => undefined);
  }

  /**
   * Runs that were going when a core stopped: their running tools may have
   * run, so they are not run again, except calls following an MCP task,
   * whose server may still be running it: the run goes on, following them
   * again. A run another live process holds (its lock is fresh) is left to it.
   */
  async recover(): Promise<void> {
    for (const chat of this.deps.files.loaded()) {
      if (chat.status !== 'running') continue;
      const release = await tryHoldFileLock(this.deps.lockFor(chat.id));
      if (!release) continue;
      let handedOn = false;
      try {
        const goesOn = this.book.markInterrupted(chat, { followTasks: true });
        await this.book.save(chat);
        if (goesOn && chat.run) {
          this.start(chat, chat.run.runId, release);
          handedOn = true;
        }
      } finally {
        if (!handedOn) await release();
      }
    }
  }

  // ── runs ────────────────────────────────────────────────────────────

  /** The person's message, then the model's turn; `replaces` drops one of their messages and all after it first. */
  async send(chatId: string, content: string, attachments: MessageAttachment[] = [], replaces?: string, answerSchema?: Record<string, unknown>, uploads: PersonFileUpload[] = []): Promise<{ runId: string; messageId: string }> {
    if (content.trim() === '' && attachments.length === 0 && uploads.length === 0) throw new ToolbeltError('invalid_params', 'Type a message, or attach a file, a resource or a prompt.');
    if (uploads.length === 0) return this.sendKept(chatId, content, attachments, [], replaces, answerSchema);
    // The files are checked and kept first: one that is not what its name says stops the message before any hook runs.
    // A message that was never kept (a hook stopped it, the chat was busy) leaves none of its files behind.
    return this.deps.personFiles.whileSending(uploads, (files) => this.sendKept(chatId, content, attachments, files, replaces, answerSchema), () => this.deps.files.all());
  }

  private async sendKept(chatId: string, content: string, attachments: MessageAttachment[], files: PersonFile[], replaces: string | undefined, answerSchema: Record<string, unknown> | undefined): Promise<{ runId: string; messageId: string }> {
    const hooked = await this.promptHooks(chatId, content);
    const message: UserMessage = { id: newUuidV7(), role: 'user', content, ...(attachments.length ? { attachments } : {}), ...(files.length ? { files } : {}), ...hooked, createdAt: this.book.now() };
    const { runId } = await this.startModelRun(chatId, (chat) => {
      const replaced = replaces === undefined ? -1 : userMessageIndex(chat, replaces);
      // An edited message keeps the files it had: the person changed its words.
      const kept = replaced === -1 ? [] : ((chat.messages[replaced] as UserMessage).files ?? []);
      if (kept.length) message.files = [...kept, ...(message.files ?? [])].slice(0, PERSON_FILE_LIMITS.files);
      const rewound = replaced === -1 ? [] : this.rewind(chat, replaced);
      if (chat.title === DEFAULT_TITLE && !chat.messages.some((entry) => entry.role === 'user')) chat.title = titleFrom(content.trim() ? content : (attachments[0]?.title ?? files[0]!.name));
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
    if (this.book.active.has(chatId)) refuseBusy(chat);
    if (!chat.model.trim()) throw new ToolbeltError('invalid_params', 'Pick a model for this chat first: the Model field at the top of the chat lists the provider’s models.');
    await this.deps.providers.require(chat.providerId);
    const lock = await this.book.claim(chat);
    let events: ChatStreamEvent[];
    try {
      refuseBusy(chat);
      events = change(chat);
    } catch (error) {
      await lock();
      throw error;
    }
    const runId = this.beginRun(chat, 'model', options.answerSchema);
    for (const event of events) this.book.emit(chat, event);
    this.start(chat, runId, lock, options.turnEvenIfAnswered === true);
    return { runId };
  }

  /**
   * The person's UserPromptSubmit hooks, before anything is kept: one that blocks (exit 2, `decision: "block"`)
   * stops the message with its reason (`hook_denied`; the person's text stays in the composer); what they print
   * or give as additionalContext goes to the model with the message.
   */
  private async promptHooks(chatId: string, prompt: string): Promise<{ hookContext?: string; hooks?: HookRun[] }> {
    const outcome = await this.deps.sessionHooks?.run('UserPromptSubmit', chatId, { prompt });
    if (outcome?.block) throw new ToolbeltError('hook_denied', `A hook stopped this message: ${outcome.block}`);
    // Kept with the message: the person sees which hooks ran on it and what they said.
    return { ...hookContextOf(outcome?.context ?? []), ...(outcome?.runs.length ? { hooks: outcome.runs } : {}) };
  }

  /** SessionStart, as a chat is made: what the hooks print (or give as additionalContext) goes in its system prompt. */
  async sessionStartHooks(chatId: string): Promise<{ hookContext?: string; startHooks?: HookRun[] }> {
    // Its matcher is tried on how the session began, as Claude Code's is (a chat made here always starts fresh).
    const outcome = await this.deps.sessionHooks?.run('SessionStart', chatId, { source: 'startup' }, ['startup']);
    return { ...hookContextOf(outcome?.context ?? []), ...(outcome?.runs.length ? { startHooks: outcome.runs } : {}) };
  }

  /** Drops the messages from `index` on; says so to the windows through the returned event. */
  private rewind(chat: Chat, index: number): ChatStreamEvent[] {
    const first = chat.messages[index];
    if (!first) return [];
    chat.messages.splice(index);
    return [{ type: 'rewind', fromMessageId: first.id }];
  }

  /** A tool the person runs from the "+" palette: decided by `palette-run.ts`, then run and kept in the chat. */
  async runTool(chatId: string, ref: { bundleID: string; slug: string; version: string }, args: Record<string, unknown>, shareWithModel: boolean): Promise<{ messageId: string; callId: string }> {
    const chat = await this.deps.files.load(chatId);
    refuseBusy(chat);
    const call = await paletteCall(this.deps, chat, ref, args);
    const lock = await this.book.claim(chat);
    const message: ToolRunMessage = { id: newUuidV7(), role: 'tool-run', call, shareWithModel, createdAt: this.book.now() };
    chat.messages.push(message);
    const runId = this.beginRun(chat, 'tool');
    this.book.emit(chat, { type: 'message', message });
    this.book.announcePending(chat, message.id, call);
    this.start(chat, runId, lock);
    return { messageId: message.id, callId: call.id };
  }

  async approve(chatId: string, callId: string, decision: 'allow' | 'allow_always' | 'deny', args?: Record<string, unknown>, note?: string): Promise<Chat> {
    const chat = await this.deps.files.load(chatId);
    return this.decide(chat, async () => {
      const { message, call } = this.waitingCall(chat, callId, 'awaiting_approval');
      if (decision === 'deny') {
        if (note) call.note = note;
        this.book.settle(call, failedResult('denied', `The user denied this call${note ? `: ${note}` : '.'}`), 'denied');
        this.book.emit(chat, { type: 'tool-result', messageId: message.id, call });
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
      const { call } = this.waitingCall(chat, callId, 'awaiting_user');
      // The call runs now, and its tool gets this answer when it asks.
      call.question = { ...call.question!, answer };
      call.status = 'queued';
    });
  }

  /** Stops the stream and running tools; every unfinished call gets a result so the history stays valid. */
  async cancel(chatId: string): Promise<Chat> {
    const chat = await this.deps.files.load(chatId);
    const active = this.book.active.get(chatId);
    if (active) {
      active.controller.abort();
      await active.done;
    } else if (chat.run) {
      const lock = await this.book.claim(chat);
      try {
        if (chat.run) await this.loop.endCancelled(chat, chat.run.runId);
      } finally {
        await lock();
      }
    }
    return chat;
  }

  /** Cancels whatever runs in the chat, then waits for it to settle (delete, shutdown). */
  async stop(chatId: string): Promise<void> {
    const active = this.book.active.get(chatId);
    if (!active) return;
    active.controller.abort();
    await active.done;
  }

  /** Stops every run; one that follows an MCP task is left in its file to follow it again at the next start (the server is told nothing). */
  async close(): Promise<void> {
    for (const chat of this.deps.files.loaded()) if (this.book.active.has(chat.id)) this.book.leaveFollowingTasks(chat);
    await Promise.all([...this.book.active.keys()].map((chatId) => this.stop(chatId)));
  }

  // ── the loop ────────────────────────────────────────────────────────

  private beginRun(chat: Chat, kind: 'model' | 'tool', answerSchema?: Record<string, unknown>): string {
    const runId = newUuidV7();
    chat.status = 'running';
    chat.run = { runId, kind, turn: 0, startedAt: this.book.now(), ...(answerSchema ? { answerSchema } : {}) };
    this.book.saveInBackground(chat);
    return runId;
  }

  private start(chat: Chat, runId: string, lock: () => Promise<void>, turnEvenIfAnswered = false): void {
    const controller = new AbortController();
    const run: ActiveRun = { runId, controller, done: Promise.resolve(), lock };
    this.book.active.set(chat.id, run);
    this.deps.files.own(chat.id);
    // Every model request of the run goes in its raw exchange: its own turns, and those of agents its tool calls run.
    run.done = recordExchanges(this.exchanges.forRun(chat.id, runId), (exchangeTag) =>
      this.loop.drive(chat, runId, controller.signal, turnEvenIfAnswered, exchangeTag),
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
    const lock = this.book.active.has(chat.id) ? null : await this.book.claim(chat);
    try {
      await change();
    } catch (error) {
      await lock?.();
      throw error;
    }
    if (lock && chat.run) {
      chat.status = 'running';
      this.start(chat, chat.run.runId, lock);
      await this.book.save(chat);
    } else {
      await this.book.save(chat);
      await lock?.();
    }
    return chat;
  }

  // ── endings ─────────────────────────────────────────────────────────

  private waitingCall(chat: Chat, callId: string, status: 'awaiting_approval' | 'awaiting_user'): LocatedCall {
    const located = findCall(chat, callId);
    if (located.call.status !== status) {
      const wanted = status === 'awaiting_approval' ? 'an approval' : 'an answer';
      throw new ToolbeltError('conflict', `This call is not waiting for ${wanted}; it is ${located.call.status.replace('_', ' ')}.`);
    }
    return located;
  }
}

function userMessageIndex(chat: Chat, messageId: string): number {
  const index = chat.messages.findIndex((message) => message.id === messageId);
  if (index === -1) throw new ToolbeltError('not_found', 'That message is no longer in this chat; it may have been replaced already.');
  if (chat.messages[index]!.role !== 'user') throw new ToolbeltError('invalid_params', 'Only your own messages can be edited and sent again.');
  return index;
}

export { DEFAULT_TITLE };

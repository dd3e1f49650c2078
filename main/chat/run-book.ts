import { newUuidV7 } from '../common/uuid-v7.js';
import { ToolbeltError } from '../../shared/errors.js';
import type { Chat, ChatStreamEvent, ToolCall, ToolProgress } from '../../shared/schemas/chat.js';
import { allCalls, pendingOf } from '../../shared/chat/chat-calls.js';
import type { EventBus } from '../api/event-bus.js';
import { inBackground } from '../common/background.js';
import type { Clock } from '../common/clock.js';
import { tryHoldFileLock } from '../common/file-lock.js';
import { storageFailure } from '../common/storage-errors.js';
import type { Logger } from '../log.js';
import type { Caller } from '../consent/consent.js';
import { settleCall, type LoopHost } from '../loop/loop-host.js';
import { failedResult, waitingStatus } from '../loop/tool-calls.js';
import type { ChatFiles } from './chat-files.js';

/** A run this process is driving. */
export interface ActiveRun {
  runId: string;
  controller: AbortController;
  done: Promise<void>;
  /** Releases the cross-process lock this process holds while it runs the chat. */
  lock: () => Promise<void>;
  /** A save made in the background failed: the run ends at its next step rather than go on unsaved. */
  saveFailure?: unknown;
}

export interface RunBookDeps {
  files: ChatFiles;
  /** The lock file that says which process runs a chat. */
  lockFor: (chatId: string) => string;
  events: EventBus;
  clock: Clock;
  log: Logger;
}

/** Progress reaches the windows at most this often. */
const PROGRESS_INTERVAL_MS = 100;

const chatSaveFailure = (error: unknown) => storageFailure(error, 'Could not save the chat', 'send again');

/**
 * The runs this process holds and how a chat changes while one runs: the
 * claim on a chat (a cross-process lock), its saves (the run stops at its
 * next step when one fails), what every window is told, and how a call
 * settles. It is the turn loop's host for chats: a call waiting for the
 * person suspends the run, kept in the chat's file.
 */
export class RunBook implements LoopHost {
  readonly active = new Map<string, ActiveRun>();
  readonly releasing = new Map<string, Promise<void>>();
  /** Chats whose runs are left to go on at the next start (leaveFollowingTasks): not written again by this process. */
  private readonly leftGoing = new Set<string>();

  constructor(private readonly deps: RunBookDeps) {}

  /**
   * A run that stopped with its process: calls that ran or were queued say so, and the chat waits or shows the error.
   * With `followTasks` (the app starting again), a call that was following an MCP task is queued to follow it again,
   * and the run is kept to go on: true then.
   */
  markInterrupted(chat: Chat, options: { followTasks?: boolean } = {}): boolean {
    const followed = allCalls(chat).filter(({ call }) => options.followTasks && call.status === 'running' && call.task);
    for (const { call } of followed) {
      call.status = 'queued';
      delete call.progress;
    }
    if (followed.length > 0 && chat.run) return true;
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
        runId: chat.run?.runId ?? newUuidV7(),
        reason: 'error',
        error: { code: 'interrupted', message: 'The app stopped during this run. Send a message to continue.' },
        at: this.now(),
      };
      delete chat.run;
    }
    return false;
  }

  /**
   * The lock that makes this process the one running the chat. A chat marked
   * running that nobody holds was left by a process that died: it is marked
   * interrupted, and the caller may go on.
   */
  async claim(chat: Chat): Promise<() => Promise<void>> {
    // A run that just stopped here may still be letting go of the lock.
    await this.releasing.get(chat.id)?.catch(() => undefined);
    const release = await tryHoldFileLock(this.deps.lockFor(chat.id));
    if (!release) throw new ToolbeltError('chat_busy', 'This chat is running in another Toolbelt window. Wait for it there, or stop it there.');
    if (chat.status === 'running' && !this.active.has(chat.id)) this.markInterrupted(chat);
    return release;
  }

  /** Saves the chat as it is now and lets its lock go once that is on disk; the save, for the caller to report on. */
  release(chat: Chat, runId: string): Promise<void> {
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

  /**
   * A running call's progress, to every window, at most ten times a second (a chatty server cannot flood them):
   * the first after a quiet spell at once, and the latest of a burst when its tenth of a second is over, so the
   * card never stays on an older one.
   */
  progressReporter(chat: Chat, messageId: string, call: ToolCall): (progress: ToolProgress) => void {
    let lastSent = -Infinity;
    let trailing: NodeJS.Timeout | undefined;
    const send = () => {
      trailing = undefined;
      if (call.status !== 'running') return;
      lastSent = performance.now();
      this.emit(chat, { type: 'tool-call', messageId, call });
    };
    return (progress) => {
      if (call.status !== 'running') return;
      call.progress = progress;
      const wait = PROGRESS_INTERVAL_MS - (performance.now() - lastSent);
      if (wait <= 0) send();
      else trailing ??= setTimeout(send, wait);
    };
  }

  settle(call: ToolCall, result: ToolCall['result'], status: ToolCall['status']): void {
    settleCall(call, result, status, this.now());
  }

  caller(chat: Chat): Caller {
    return { kind: 'chat-model', alwaysAllowed: chat.alwaysAllowed, manual: chat.toolRuns === 'manual' };
  }

  /** A chat's calls carry its manual mode into the agents they run; anything else they ask, they ask live. */
  stopHook(chat: Chat) {
    return { event: 'Stop' as const, sessionId: chat.id, fields: {} };
  }

  callContext(chat: Chat) {
    return { sessionId: chat.id, ...(chat.toolRuns === 'manual' ? { manual: true } : {}) };
  }

  /** A chat spends what its turn limit allows; tool calls are not counted. */
  spend(): void {}

  /** A chat waits for the person in its file: the run suspends, and their answer starts it again. */
  async settleWaiting(): Promise<boolean> {
    return false;
  }

  announcePending(chat: Chat, messageId: string, call: ToolCall): void {
    if (call.status !== 'awaiting_approval' && call.status !== 'awaiting_user') return;
    const item = pendingOf(chat).find((entry) => entry.callId === call.id && entry.messageId === messageId);
    if (!item) return;
    this.emit(chat, item.kind === 'approval' ? { type: 'approval-requested', pending: item } : { type: 'ask-user', pending: item });
  }

  emit(chat: Chat, event: ChatStreamEvent): void {
    this.deps.events.publish({ type: 'chat', chatId: chat.id, ...(chat.run ? { runId: chat.run.runId } : {}), event });
  }

  /**
   * The app is closing while the chat's run follows an MCP task: the task is
   * the server's, and may run for minutes after Toolbelt is gone. The chat's
   * file is left as it is (the run going, the call with its task, saved when
   * the task was made), as after a crash, so the next start follows the task
   * again (recover).
   */
  leaveFollowingTasks(chat: Chat): void {
    if (allCalls(chat).some(({ call }) => call.status === 'running' && call.task)) this.leftGoing.add(chat.id);
  }

  /** Writes the chat; a failure is `storage_failed` with the reason and what to do. */
  save(chat: Chat): Promise<void> {
    if (this.leftGoing.has(chat.id)) return Promise.resolve();
    chat.updatedAt = this.now();
    chat.pending = pendingOf(chat);
    this.deps.events.publish({ type: 'chats.changed', chatIds: [chat.id] });
    return this.deps.files.save(chat).catch((error: unknown) => {
      throw chatSaveFailure(error);
    });
  }

  /** A save the run does not wait for; if it fails, the run stops at its next step with the reason. */
  saveInBackground(chat: Chat): void {
    inBackground(this.save(chat), (error) => {
      const active = this.active.get(chat.id);
      if (active) active.saveFailure ??= error;
      else this.reportSaveFailure(chat, error);
    });
  }

  throwIfSaveFailed(chat: Chat): void {
    const failure = this.active.get(chat.id)?.saveFailure;
    if (failure !== undefined) throw chatSaveFailure(failure);
  }

  /** The window hears of a save that failed after the run could still say so; the log keeps the details. */
  reportSaveFailure(chat: Chat, error: unknown): void {
    const failure = chatSaveFailure(error);
    this.deps.log.error('a chat could not be saved', { chatId: chat.id, error: String(error) });
    this.emit(chat, { type: 'error', code: failure.code, message: failure.message });
  }

  now(): string {
    return this.deps.clock.now().toISOString();
  }
}

/** chat_busy, saying what the chat is waiting for, unless it is idle (or stopped by an error). */
export function refuseBusy(chat: Chat): void {
  if (chat.status === 'running') throw new ToolbeltError('chat_busy', 'This chat is still answering. Wait for it or stop it first.');
  if (chat.status === 'awaiting_approval') throw new ToolbeltError('chat_busy', 'This chat waits for you to approve or deny a tool call first.');
  if (chat.status === 'awaiting_user') throw new ToolbeltError('chat_busy', 'This chat waits for your answer to its question first.');
}

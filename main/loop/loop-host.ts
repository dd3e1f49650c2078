import type { HookRun } from '../../shared/schemas/hooks.js';
import type { Chat, ChatStreamEvent, ToolCall, ToolProgress } from '../../shared/schemas/chat.js';
import type { Caller } from '../consent/consent.js';
import type { InvokeContext } from '../tools/invoker.js';

/**
 * What the turn loop needs from whoever runs it. The loop is one: model
 * turn, calls decided through the one door, run (in parallel when asked),
 * the halt policy, the turn limit, the answer schema. Its hosts differ in
 * where the conversation lives and how the person is asked:
 * - a chat (`chat/run-book.ts`) keeps it in its file, tells every window,
 *   and waits for the person by suspending the run (it outlives a restart);
 * - an agent (`agents/agent-host.ts`) keeps it in memory for the length of
 *   one tool call, turns it into steps, and asks the person live.
 */
/** Events of the person's hooks that are not about one tool call (main/hooks' `session`, wired by the core). */
export type SessionHookEvent = 'UserPromptSubmit' | 'Stop' | 'SessionStart' | 'SubagentStart' | 'SubagentStop';

/** What those hooks said: a reason when one blocked, what they gave the model to read, and each run. */
export interface SessionHookOutcome {
  runs: HookRun[];
  block?: string;
  context: string[];
}

export interface SessionHooks {
  /** Null when no hook is set for the event. */
  /** `names`: what a matcher is tried on (an agent's names for the Subagent events); without them every hook runs. */
  run(event: SessionHookEvent, sessionId: string, fields: Record<string, unknown>, names?: readonly string[]): Promise<SessionHookOutcome | null>;
}

export interface LoopHost {
  now(): string;
  /** Who makes the model's calls, for the one door to the person (in the invoker; a chat's model is asked for ahead). */
  caller(chat: Chat): Caller;
  /** What every call run in this loop carries besides its signal (the agent path, the run's budget, a way to ask). */
  callContext(chat: Chat): Omit<InvokeContext, 'signal' | 'caller'>;
  /**
   * Which hooks hear that the model is done: a chat's Stop, with the chat as the session; an agent's SubagentStop,
   * in the session of the chat it runs for, with its own fields and the names its matchers are tried on.
   */
  stopHook(chat: Chat): { event: 'Stop' | 'SubagentStop'; sessionId: string; fields: Record<string, unknown>; names?: readonly string[] };
  /**
   * Before each model request (`modelRequests`) and each batch of calls
   * (`toolCalls`, with how many): throws a ToolbeltError, which ends the run
   * with its code, when the run may spend no more.
   */
  spend(what: 'modelRequests' | 'toolCalls', count: number): void;
  /**
   * Calls that wait for the person (approval, a question): settled now
   * (an agent asks live and the loop goes on) → true; or left waiting, and
   * the run suspends until the person answers → false.
   */
  settleWaiting(chat: Chat, signal: AbortSignal): Promise<boolean>;
  emit(chat: Chat, event: ChatStreamEvent): void;
  /** A call waits for the person: every window is told. */
  announcePending(chat: Chat, messageId: string, call: ToolCall): void;
  progressReporter(chat: Chat, messageId: string, call: ToolCall): (progress: ToolProgress) => void;
  save(chat: Chat): Promise<void>;
  saveInBackground(chat: Chat): void;
  throwIfSaveFailed(chat: Chat): void;
  reportSaveFailure(chat: Chat, error: unknown): void;
  /** The run is over (ended or suspended): the conversation as it stands is kept, and its claim let go. */
  release(chat: Chat, runId: string): Promise<void>;
}

/** A call's outcome, set on it. */
export function settleCall(call: ToolCall, result: ToolCall['result'], status: ToolCall['status'], at: string): void {
  delete call.progress;
  call.result = result;
  call.status = status;
  call.finishedAt = at;
}

import { ToolbeltError } from '../../shared/errors.js';
import { allCalls } from '../../shared/chat/chat-calls.js';
import type { Chat, ChatStreamEvent, ToolCall } from '../../shared/schemas/chat.js';
import { askPersonFor, type ConsentDeps, type LiveCaller } from '../consent/consent.js';
import { settleCall, type LoopHost } from '../loop/loop-host.js';
import { failedResult } from '../loop/tool-calls.js';
import type { RunContext } from '../tools/runners.js';
import { RUN_BUDGET, spend, type RunBudget } from '../tools/run-lineage.js';

export interface AgentHostDeps extends ConsentDeps {
  now: () => string;
}

/**
 * The turn loop's host for one agent call: the conversation lives in memory
 * for the length of the call; a call that needs the person's yes is asked
 * at the invoker's door as it runs, a question here (in the window, or
 * through the MCP client the call came from), and the loop goes on; every model
 * request and tool call is counted against the run's budget.
 */
export class AgentHost implements LoopHost {
  /** Why the run stopped early, when it was the budget. */
  spent: string | null = null;
  private readonly who: LiveCaller;

  constructor(
    private readonly deps: AgentHostDeps,
    private readonly agentName: string,
    private readonly path: readonly string[],
    private readonly context: RunContext & { budget: RunBudget },
    private readonly maxTurns: number,
    /** What the SubagentStop hooks are told: the session (the chat it runs for), its type, and the names matchers try. */
    private readonly hooked: { sessionId: string; agentType: string; names: readonly string[] },
  ) {
    this.who = { kind: 'agent', path, ...(context.manual ? { manual: true } : {}) };
  }

  now(): string {
    return this.deps.now();
  }

  stopHook(chat: Chat) {
    return { event: 'SubagentStop' as const, sessionId: this.hooked.sessionId, fields: { agent_id: chat.id, agent_type: this.hooked.agentType }, names: this.hooked.names };
  }

  caller(): LiveCaller {
    return this.who;
  }

  callContext() {
    return {
      agentPath: this.path,
      budget: this.context.budget,
      askUser: this.ask(),
      ...(this.context.manual ? { manual: true } : {}),
      ...(this.context.sessionId ? { sessionId: this.context.sessionId } : {}),
    };
  }

  spend(what: 'modelRequests' | 'toolCalls', count: number): void {
    for (let spent = 0; spent < count; spent++) {
      if (spend(this.context.budget, what)) continue;
      const words = what === 'modelRequests' ? 'model requests' : 'tool calls';
      this.spent = `${this.agentName} stopped: the run it belongs to has used all its ${words} (${RUN_BUDGET[what]}, across every agent in it). Ask for less, or split the task.`;
      throw new ToolbeltError('unavailable', this.spent);
    }
  }

  async settleWaiting(chat: Chat, signal: AbortSignal): Promise<boolean> {
    for (const { call } of allCalls(chat)) {
      if (signal.aborted) break;
      // Approval is asked at the invoker's door when the call runs (an agent can wait); questions are asked here.
      if (call.status === 'awaiting_user') await this.answer(call);
    }
    return true;
  }

  emit(chat: Chat, event: ChatStreamEvent): void {
    if (event.type !== 'tool-result') return;
    const { call } = event;
    this.context.onProgress?.({ progress: chat.run?.turn ?? 0, total: this.maxTurns, message: `${call.tool?.displayName ?? call.name}: ${call.status === 'succeeded' ? 'done' : 'failed'}` });
  }

  // Nothing to tell a window or to write: the agent's steps are its result.
  announcePending(): void {}
  progressReporter() {
    return () => {};
  }
  async save(): Promise<void> {}
  saveInBackground(): void {}
  throwIfSaveFailed(): void {}
  reportSaveFailure(): void {}
  async release(): Promise<void> {}

  /** A question a tool asks: through the caller's own way to ask (an MCP client's), else in the window. */
  private ask() {
    return this.context.askUser ?? askPersonFor(this.deps, this.who, this.context.signal);
  }

  private async answer(call: ToolCall): Promise<void> {
    const question = call.question!;
    try {
      call.question = { ...question, answer: await this.ask()(question.text, question.choices) };
      call.status = 'queued';
    } catch (error) {
      settleCall(call, failedResult('no_answer', `${error instanceof Error ? error.message : String(error)} Go on without the answer.`), 'failed', this.now());
    }
  }
}

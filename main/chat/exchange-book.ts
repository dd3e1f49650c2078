import type { RawExchange, RunExchanges } from '../../shared/schemas/raw-exchange.js';

const RUNS_PER_CHAT = 3;
const CHATS_KEPT = 50;

/**
 * What the model servers were sent and answered in each chat's last runs,
 * in memory only: for seeing what a server did, not a record (they go when
 * Toolbelt closes, and the oldest chats' go first).
 */
export class ExchangeBook {
  private readonly byChat = new Map<string, RunExchanges[]>();

  constructor(private readonly now: () => string) {}

  /** The list a run's requests are added to: the same one for every turn of the run. */
  forRun(chatId: string, runId: string): RawExchange[] {
    const runs = this.byChat.get(chatId) ?? [];
    let run = runs.find((entry) => entry.runId === runId);
    if (!run) {
      run = { runId, startedAt: this.now(), exchanges: [] };
      runs.push(run);
      if (runs.length > RUNS_PER_CHAT) runs.shift();
    }
    // Most recently used last: the first key is the chat least recently run.
    this.byChat.delete(chatId);
    this.byChat.set(chatId, runs);
    if (this.byChat.size > CHATS_KEPT) this.byChat.delete(this.byChat.keys().next().value!);
    return run.exchanges;
  }

  /** Newest run first. */
  runsOf(chatId: string): RunExchanges[] {
    return [...(this.byChat.get(chatId) ?? [])].reverse();
  }

  forget(chatId: string): void {
    this.byChat.delete(chatId);
  }
}

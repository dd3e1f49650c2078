import type { RawExchange, RunExchanges } from '../../shared/schemas/raw-exchange.js';
import type { ExchangeSink } from '../providers/raw-exchange.js';

const RUNS_PER_CHAT = 3;
/** A long run keeps its last requests: the turns where something went wrong are usually the last. */
const EXCHANGES_PER_RUN = 16;
/** Characters kept across every chat (about 64 MB of memory at most); past it, the least recently run chats' go first. */
const CHARACTERS_KEPT = 32_000_000;

/**
 * What the model servers were sent and answered in each chat's last runs,
 * in memory only: for seeing what a server did, not a record (they go when
 * Toolbelt closes, and the oldest chats' go first).
 */
export class ExchangeBook {
  private readonly byChat = new Map<string, RunExchanges[]>();

  constructor(private readonly now: () => string) {}

  /**
   * Where a run's requests are added: the same run for every turn of it.
   * The run is listed from its first request: a run that asks no model
   * (a tool run from the palette) leaves the chat's last runs as they were.
   */
  forRun(chatId: string, runId: string): ExchangeSink {
    let exchanges: RawExchange[] | null = null;
    return {
      add: (exchange) => {
        exchanges ??= this.listed(chatId, runId);
        exchanges.push(exchange);
        if (exchanges.length > EXCHANGES_PER_RUN) exchanges.shift();
      },
    };
  }

  private listed(chatId: string, runId: string): RawExchange[] {
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
    this.keepWithinBudget(chatId);
    return run.exchanges;
  }

  private keepWithinBudget(current: string): void {
    let total = 0;
    for (const runs of this.byChat.values()) for (const run of runs) for (const exchange of run.exchanges) total += exchange.requestBody.length + exchange.responseBody.length;
    for (const [chatId, runs] of this.byChat) {
      if (total <= CHARACTERS_KEPT || chatId === current) break;
      for (const run of runs) for (const exchange of run.exchanges) total -= exchange.requestBody.length + exchange.responseBody.length;
      this.byChat.delete(chatId);
    }
  }

  /** Newest run first. */
  runsOf(chatId: string): RunExchanges[] {
    return [...(this.byChat.get(chatId) ?? [])].reverse();
  }

  forget(chatId: string): void {
    this.byChat.delete(chatId);
  }
}

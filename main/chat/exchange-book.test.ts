import { describe, expect, it } from 'vitest';
import type { RawExchange } from '../../shared/schemas/raw-exchange.js';
import { ExchangeBook } from './exchange-book.js';

const exchange = (label: string, size = 10): RawExchange => ({
  startedAt: '2026-11-24T00:00:00.000Z',
  method: 'POST',
  url: `http://127.0.0.1/${label}`,
  requestHeaders: {},
  requestBody: 'x'.repeat(size),
  responseBody: '',
  truncated: false,
});

describe('the raw exchanges kept in memory', () => {
  it('keeps a run’s last 16 requests and a chat’s last 3 runs, newest run first', () => {
    const book = new ExchangeBook(() => '2026-11-24T00:00:00.000Z');
    const sink = book.forRun('chat', 'run-1');
    for (let turn = 1; turn <= 20; turn++) sink.add(exchange(`turn-${turn}`));
    expect(book.runsOf('chat')[0]!.exchanges.map((entry) => entry.url)).toEqual(Array.from({ length: 16 }, (_, at) => `http://127.0.0.1/turn-${at + 5}`));
    for (const runId of ['run-2', 'run-3', 'run-4']) book.forRun('chat', runId).add(exchange(runId));
    expect(book.runsOf('chat').map((run) => run.runId)).toEqual(['run-4', 'run-3', 'run-2']);
    // The same run again (a run that resumed after an approval) adds to its list.
    book.forRun('chat', 'run-4').add(exchange('again'));
    expect(book.runsOf('chat')[0]!.exchanges).toHaveLength(2);
  });

  it('lists a run from its first request, so a run that asks no model keeps the chat’s last runs', () => {
    const book = new ExchangeBook(() => '2026-11-24T00:00:00.000Z');
    for (const runId of ['run-1', 'run-2', 'run-3']) book.forRun('chat', runId).add(exchange(runId));
    book.forRun('chat', 'palette-run');
    expect(book.runsOf('chat').map((run) => run.runId)).toEqual(['run-3', 'run-2', 'run-1']);
  });

  it('past its budget, drops the least recently run chats first, never the one running', () => {
    const book = new ExchangeBook(() => '2026-11-24T00:00:00.000Z');
    book.forRun('old', 'r').add(exchange('old', 15_000_000));
    book.forRun('middle', 'r').add(exchange('middle', 15_000_000));
    book.forRun('new', 'r').add(exchange('new', 15_000_000));
    // Over the budget: the next run's first request makes room.
    book.forRun('new', 'r2').add(exchange('r2'));
    expect(book.runsOf('old')).toEqual([]);
    expect(book.runsOf('middle')).toHaveLength(1);
    expect(book.runsOf('new')).toHaveLength(2);
  });
});

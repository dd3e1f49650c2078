import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { KEPT_CHARS, KEPT_EVENTS, SessionEventStore } from './event-store.js';

const message = (id: number, text = ''): JSONRPCMessage => ({ jsonrpc: '2.0', id, result: { content: [{ type: 'text', text }] } });

async function replay(store: SessionEventStore, after: string) {
  const sent: string[] = [];
  const stream = await store.replayEventsAfter(after, { send: (eventId) => (sent.push(eventId), Promise.resolve()) });
  return { stream, sent };
}

describe('what a session keeps for a client that reconnects', () => {
  it('sends again what came after the last event the client saw, of its own stream only, without priming events', async () => {
    const store = new SessionEventStore();
    const priming = await store.storeEvent('a', {} as JSONRPCMessage);
    const first = await store.storeEvent('a', message(1));
    const other = await store.storeEvent('b', message(2));
    const second = await store.storeEvent('a', message(3));
    expect(await replay(store, priming)).toEqual({ stream: 'a', sent: [first, second] });
    expect(await replay(store, first)).toEqual({ stream: 'a', sent: [second] });
    expect(await replay(store, other)).toEqual({ stream: 'b', sent: [] });
    expect(await store.getStreamIdForEventId(second)).toBe('a');
    await expect(store.replayEventsAfter('not-ours', { send: () => Promise.resolve() })).rejects.toThrow(/unknown event/);
  });

  it('keeps at most its last events and a bounded amount of text, whatever a session streams', async () => {
    const store = new SessionEventStore();
    const ids: string[] = [];
    for (let n = 0; n < KEPT_EVENTS + 50; n++) ids.push(await store.storeEvent('a', message(n)));
    // The first 50 are gone: a client that saw the first gets what is left.
    expect((await replay(store, ids[0]!)).sent).toEqual(ids.slice(50));

    const big = 'x'.repeat(KEPT_CHARS / 2);
    const large = [];
    for (let n = 0; n < 4; n++) large.push(await store.storeEvent('c', message(n, big)));
    const { sent } = await replay(store, 'c_0');
    expect(sent.length).toBeLessThanOrEqual(2);
    expect(sent.at(-1)).toBe(large.at(-1));
  });
});

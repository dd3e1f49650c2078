import { getEventListeners } from 'node:events';
import { describe, expect, it } from 'vitest';
import { startLoopbackServer, json } from '../../testing/harness/loopback-server.js';
import { requestScopedFetch } from './request-scoped-fetch.js';

describe('requests on a shared connection signal (the SDK HTTP transports)', () => {
  it('leave no listener on the connection’s signal once their bodies are read, however many there are', async () => {
    const server = await startLoopbackServer({ '/call': (_request, response) => json(response, 200, { ok: true }) });
    const connection = new AbortController();
    const scoped = requestScopedFetch();
    for (let index = 0; index < 200; index++) {
      const response = await scoped(`${server.base}/call`, { signal: connection.signal });
      expect(await response.json()).toEqual({ ok: true });
    }
    expect(getEventListeners(connection.signal, 'abort')).toHaveLength(0);
    // The same with the bare fetch keeps one per request until a garbage collection.
    const bare = [];
    for (let index = 0; index < 20; index++) bare.push(await (await fetch(`${server.base}/call`, { signal: connection.signal })).json());
    expect(getEventListeners(connection.signal, 'abort').length).toBeGreaterThan(0);
  });

  it('still ends a stream that is being read when the connection closes', async () => {
    const server = await startLoopbackServer({
      '/events': (_request, response) => {
        response.writeHead(200, { 'Content-Type': 'text/event-stream' });
        response.write('data: first\n\n');
      },
    });
    const connection = new AbortController();
    const response = await requestScopedFetch()(`${server.base}/events`, { signal: connection.signal });
    const reader: ReadableStreamDefaultReader<Uint8Array> = response.body!.getReader();
    const first = await reader.read();
    expect(new TextDecoder().decode(first.value as Uint8Array)).toContain('first');
    expect(getEventListeners(connection.signal, 'abort')).toHaveLength(1);
    const next = reader.read();
    connection.abort(new Error('closed'));
    await expect(next).rejects.toThrow();
    expect(getEventListeners(connection.signal, 'abort')).toHaveLength(0);
  });
});

import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { readJsonBody } from '../common/request-body.js';
import { servedFromWeb, type WebMcpHandler } from './web-adapter.js';

let listening: Server | null = null;
afterEach(async () => {
  listening?.closeAllConnections();
  await new Promise((resolve) => listening?.close(resolve) ?? resolve(undefined));
  listening = null;
});

/** A loopback listener that reads the body as the endpoint does, then answers with `handle`. */
async function serve(handle: WebMcpHandler): Promise<string> {
  const answer = servedFromWeb(handle);
  listening = createServer((request, response) => {
    readJsonBody(request)
      .then((body) => answer(request, response, body))
      .catch((error: unknown) => response.destroy(error as Error));
  });
  await new Promise<void>((resolve) => listening!.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(listening.address() as AddressInfo).port}/mcp`;
}

describe('an MCP web handler answering Node requests', () => {
  it('sends an event stream’s headers before its first event, then each event as it comes', async () => {
    let push: (text: string) => void = () => {};
    const url = await serve(async () => {
      const stream = new ReadableStream<Uint8Array>({
        start(controller) {
          push = (text) => controller.enqueue(new TextEncoder().encode(text));
        },
      });
      return new Response(stream, { headers: { 'Content-Type': 'text/event-stream', 'mcp-session-id': 'abc' } });
    });
    // A 2025 client's GET stream: nothing to say yet, and its client must still learn it is open.
    const response = await fetch(url, { headers: { Accept: 'text/event-stream' } });
    expect(response.status).toBe(200);
    expect(response.headers.get('mcp-session-id')).toBe('abc');
    const reader = response.body!.getReader();
    push('data: one\n\n');
    expect(new TextDecoder().decode((await reader.read()).value as Uint8Array)).toBe('data: one\n\n');
    await reader.cancel();
  });

  it('gives the handler the body already read, with the request’s headers, and no body of its own', async () => {
    const seen: { parsedBody?: unknown; method: string; accept: string | null; hasBody: boolean }[] = [];
    const url = await serve(async (request, options) => {
      seen.push({ parsedBody: options.parsedBody, method: request.method, accept: request.headers.get('accept'), hasBody: request.body !== null });
      return Response.json({ ok: true });
    });
    const response = await fetch(url, { method: 'POST', headers: { 'Content-Type': 'application/json', Accept: 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }) });
    expect(await response.json()).toEqual({ ok: true });
    expect(seen).toEqual([{ parsedBody: { jsonrpc: '2.0', id: 1, method: 'ping' }, method: 'POST', accept: 'application/json', hasBody: false }]);
  });

  it('stops reading a stream whose client has gone', async () => {
    let cancelled: () => void = () => {};
    const gone = new Promise<void>((resolve) => (cancelled = resolve));
    const url = await serve(async () => {
      const stream = new ReadableStream<Uint8Array>({
        start(controller) {
          controller.enqueue(new TextEncoder().encode('data: first\n\n'));
        },
        cancel: () => cancelled(),
      });
      return new Response(stream, { headers: { 'Content-Type': 'text/event-stream' } });
    });
    const leave = new AbortController();
    const response = await fetch(url, { signal: leave.signal });
    await response.body!.getReader().read();
    leave.abort();
    await gone;
  });
});

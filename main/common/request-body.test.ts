import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { ToolbeltError } from '../../shared/errors.js';
import { readJsonBody } from './request-body.js';

let listening: Server | null = null;
afterEach(async () => {
  listening?.closeAllConnections();
  await new Promise((resolve) => listening?.close(resolve) ?? resolve(undefined));
  listening = null;
});

/** A listener answering each request with what readJsonBody made of its body: the value, or the error's code. */
async function reader(maxBytes: number): Promise<number> {
  listening = createServer((request, response) => {
    readJsonBody(request, maxBytes).then(
      (value) => response.end(JSON.stringify({ value: value ?? null })),
      (error: unknown) => {
        if (!response.destroyed) response.writeHead(400).end(JSON.stringify({ code: error instanceof ToolbeltError ? error.code : 'other' }));
      },
    );
  });
  await new Promise<void>((resolve) => listening!.listen(0, '127.0.0.1', resolve));
  return (listening.address() as AddressInfo).port;
}

/** Sends chunks one after another without a Content-Length (chunked), as a client streaming its body does. */
function send(port: number, chunks: string[], headers: Record<string, string> = { 'Content-Type': 'application/json' }): Promise<{ status: number; body: string } | { gone: true }> {
  return new Promise((resolve) => {
    const request = httpRequest({ host: '127.0.0.1', port, method: 'POST', headers }, (response) => {
      let body = '';
      response.on('data', (chunk: Buffer) => (body += chunk.toString()));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
    });
    request.on('error', () => resolve({ gone: true }));
    for (const chunk of chunks) request.write(chunk);
    request.end();
  });
}

describe('readJsonBody', () => {
  it('reads a body sent in pieces, and an empty one as nothing', async () => {
    const port = await reader(1_000);
    expect(await send(port, ['{"a": ', '[1, 2', ']}'])).toEqual({ status: 200, body: '{"value":{"a":[1,2]}}' });
    expect(await send(port, [])).toEqual({ status: 200, body: '{"value":null}' });
  });

  it('stops a body past its limit that did not say its length, and refuses one that said it', async () => {
    const port = await reader(1_000);
    // Streamed without a length: reading stops at the limit and the connection with it (or the refusal arrives first).
    const streamed = await send(port, Array.from({ length: 50 }, () => 'x'.repeat(100)));
    expect('gone' in streamed || (streamed.status === 400 && streamed.body.includes('payload_too_large'))).toBe(true);
    const declared = await send(port, ['{}'], { 'Content-Type': 'application/json', 'Content-Length': '5000' });
    expect('gone' in declared || (declared.status === 400 && declared.body.includes('payload_too_large'))).toBe(true);
  });

  it('says what is wrong with a body that is not JSON, or not said to be', async () => {
    const port = await reader(1_000);
    expect(await send(port, ['{"a": '])).toEqual({ status: 400, body: '{"code":"invalid_params"}' });
    expect(await send(port, ['{}'], { 'Content-Type': 'text/plain' })).toEqual({ status: 400, body: '{"code":"unsupported_media_type"}' });
  });
});

import { connect } from 'node:net';
import type { AddressInfo } from 'node:net';
import { describe, expect, it, onTestFinished } from 'vitest';
import { createLimitedServer } from './listener-limits.js';

/** Sends raw bytes and reads the whole answer until the listener closes the connection. */
function rawExchange(port: number, bytes: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(bytes));
    let answer = '';
    socket.on('data', (chunk) => (answer += chunk.toString('utf8')));
    socket.on('end', () => resolve(answer));
    socket.on('error', reject);
  });
}

async function listening() {
  const server = createLimitedServer(undefined, (_request, response) => response.end('ok'));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  onTestFinished(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return (server.address() as AddressInfo).port;
}

describe('a listener’s own refusals', () => {
  it('headers too large: 431 with the error body every other answer has, and a policy', async () => {
    const answer = await rawExchange(await listening(), `GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: ${'a'.repeat(100_000)}\r\n\r\n`);
    const [head, body] = answer.split('\r\n\r\n');
    expect(head).toMatch(/^HTTP\/1\.1 431 /);
    expect(head).toContain("Content-Security-Policy: default-src 'none'");
    expect(JSON.parse(body!)).toEqual({ error: { code: 'payload_too_large', message: expect.stringContaining('headers') as unknown } });
  });

  it('bytes that are not HTTP: 400 with the error body', async () => {
    const answer = await rawExchange(await listening(), 'NOT HTTP AT ALL\r\n\r\n');
    const [head, body] = answer.split('\r\n\r\n');
    expect(head).toMatch(/^HTTP\/1\.1 400 /);
    expect(JSON.parse(body!)).toEqual({ error: { code: 'invalid_params', message: 'The request is not valid HTTP.' } });
  });
});

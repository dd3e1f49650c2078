import net from 'node:net';
import { describe, expect, it, onTestFinished } from 'vitest';
import { freePort } from '../../testing/cores/free-port.js';
import { startInProcessHost, TEST_TOKEN } from '../../testing/harness/in-process-host.js';

const LIMITS = { headersTimeoutMs: 300, requestTimeoutMs: 600 };

/** Sends `text` and never more; resolves with what the server answered once it closed the connection. */
function sendAndHold(port: number, text: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1', () => socket.write(text));
    let answer = '';
    socket.on('data', (chunk) => (answer += chunk.toString()));
    socket.on('close', () => resolve(answer));
    socket.on('error', reject);
  });
}

const chunkedForever = (method: string, path: string, port: number, token: string, extra: string) =>
  `${method} ${path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAuthorization: Bearer ${token}\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n${extra}\r\n5\r\n{"a":\r\n`;

describe('listeners close connections whose request never finishes arriving', () => {
  it('the browser host: a chunked body that never ends, and headers that never end, get 408 and a closed connection', async () => {
    const host = await startInProcessHost({ limits: LIMITS });
    onTestFinished(() => host.stop());
    const port = host.host.port;
    expect(await sendAndHold(port, chunkedForever('PATCH', '/api/settings', port, TEST_TOKEN, ''))).toMatch(/^HTTP\/1\.1 408/);
    expect(await sendAndHold(port, `GET /api/app/info HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nX-Slow: `)).toMatch(/^HTTP\/1\.1 408/);
    // And it still serves.
    expect((await fetch(`${host.base}/api/app/info`, { headers: host.authorization })).status).toBe(200);
  });

  it('the MCP server: the same', async () => {
    const port = await freePort();
    const host = await startInProcessHost({ mcpShareLimits: LIMITS });
    onTestFinished(() => host.stop());
    await host.core.dispatcher.call('mcpShare.configure', { enabled: true, port }, { transport: 'internal' });
    const { token } = (await host.core.dispatcher.call('mcpShare.connection', {}, { transport: 'internal' })) as { token: string };
    expect(await sendAndHold(port, chunkedForever('POST', '/mcp', port, token, 'Accept: application/json, text/event-stream\r\n'))).toMatch(/^HTTP\/1\.1 408/);
  });
});

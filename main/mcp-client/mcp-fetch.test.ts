import { createServer, type Socket } from 'node:net';
import { once } from 'node:events';
import { describe, expect, it, onTestFinished } from 'vitest';
import { mcpFetch } from './mcp-fetch.js';

/**
 * A server that answers the first request on each connection and keeps it open, then closes that connection
 * without reading when a second request comes on it (a server that had closed it idle; with `reset`, with a reset).
 * With `resetFresh`, it closes fresh connections too, at their first request. Counts the requests whose bytes reached it.
 */
async function closingServer(options: { resetFresh?: boolean; reset?: boolean } = {}) {
  const seen = { requests: 0, connections: 0 };
  const server = createServer((socket: Socket) => {
    seen.connections++;
    let answered = false;
    socket.on('data', () => {
      seen.requests++;
      if (answered && options.reset) return void socket.resetAndDestroy();
      if (answered || options.resetFresh) return void socket.destroy();
      answered = true;
      socket.write('HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 2\r\nconnection: keep-alive\r\n\r\n{}');
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  onTestFinished(() => void server.close());
  const { port } = server.address() as { port: number };
  return { url: `http://127.0.0.1:${port}/mcp`, seen };
}

const post = (url: string) => mcpFetch(url, { method: 'POST', body: '{"jsonrpc":"2.0","id":1,"method":"tools/call"}', headers: { 'content-type': 'application/json' } });

describe('requests to remote MCP servers', () => {
  it('a request that finds its kept connection closed by the server is sent once more, on a new connection', async () => {
    const { url, seen } = await closingServer();
    expect(await (await post(url)).text()).toBe('{}');
    // The connection goes back to the pool once its answer is parsed, a turn of the event loop after the body.
    await new Promise(setImmediate);
    const again = await post(url);
    expect(again.status).toBe(200);
    expect(await again.text()).toBe('{}');
    expect(seen).toEqual({ requests: 3, connections: 2 });
  });

  it('a request whose kept connection the server resets (ECONNRESET) is sent once more, on a new connection', async () => {
    const { url, seen } = await closingServer({ reset: true });
    expect(await (await post(url)).text()).toBe('{}');
    await new Promise(setImmediate);
    const again = await post(url);
    expect(await again.text()).toBe('{}');
    expect(seen).toEqual({ requests: 3, connections: 2 });
  });

  it('a request closed on a new connection is not sent again (the server may have read it)', async () => {
    const { url, seen } = await closingServer({ resetFresh: true });
    await expect(post(url)).rejects.toThrow('fetch failed');
    expect(seen.requests).toBe(1);
  });
});

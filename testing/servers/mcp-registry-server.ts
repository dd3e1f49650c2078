import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * An MCP registry on 127.0.0.1 that serves the official API's shapes
 * (`GET /v0.1/servers` with search, limit, cursor and version=latest;
 * `GET /v0.1/servers/{name}/versions/{version}`), over the entries given.
 * `misbehave` makes it answer as broken registries do.
 */
export type RegistryMisbehaviour = 'none' | 'error-500' | 'html' | 'huge' | 'endless-cursor' | 'down';

export interface ServedEntry {
  server: Record<string, unknown> & { name: string; version: string };
  status?: 'active' | 'deprecated' | 'deleted';
}

export async function startRegistryServer(entries: ServedEntry[]) {
  let misbehave: RegistryMisbehaviour = 'none';
  let listRequests = 0;
  const responseOf = (entry: ServedEntry) => ({
    server: { $schema: 'https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json', ...entry.server },
    _meta: { 'io.modelcontextprotocol.registry/official': { status: entry.status ?? 'active', publishedAt: '2026-10-01T10:00:00Z', updatedAt: '2026-10-01T10:00:00Z', isLatest: true } },
  });
  const send = (response: ServerResponse, status: number, body: unknown) => response.writeHead(status, { 'Content-Type': 'application/json' }).end(JSON.stringify(body));
  const server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://registry');
    if (misbehave === 'down') {
      request.socket.destroy();
      return;
    }
    if (misbehave === 'error-500') return send(response, 500, { error: 'database is down' });
    if (misbehave === 'html') return response.writeHead(200, { 'Content-Type': 'text/html' }).end('<!doctype html><title>Login</title>');
    if (misbehave === 'huge') {
      // 50 MB of JSON, written as fast as the client reads it.
      response.writeHead(200, { 'Content-Type': 'application/json' });
      response.write('{"servers":[');
      const chunk = `${JSON.stringify(responseOf(entries[0]!))},`.repeat(200);
      let written = 0;
      const pump = () => {
        while (written < 50 * 1024 * 1024) {
          written += chunk.length;
          if (!response.write(chunk)) return void response.once('drain', pump);
        }
        response.end('{}]}');
      };
      response.on('error', () => undefined);
      return pump();
    }
    if (url.pathname === '/v0.1/servers') {
      listRequests++;
      const search = url.searchParams.get('search') ?? '';
      const limit = Number(url.searchParams.get('limit') ?? 30);
      const start = Number(url.searchParams.get('cursor') ?? 0);
      const found = entries.filter((entry) => entry.status !== 'deleted' && entry.server.name.includes(search));
      const page = found.slice(start, start + limit);
      const nextCursor = misbehave === 'endless-cursor' ? String(start) : start + limit < found.length ? String(start + limit) : undefined;
      return send(response, 200, { servers: page.map(responseOf), metadata: { count: page.length, ...(nextCursor !== undefined ? { nextCursor } : {}) } });
    }
    const one = /^\/v0\.1\/servers\/([^/]+)\/versions\/([^/]+)$/.exec(url.pathname);
    const entry = one && entries.find((candidate) => candidate.server.name === decodeURIComponent(one[1]!) && (one[2] === 'latest' || candidate.server.version === decodeURIComponent(one[2]!)));
    if (entry) return send(response, 200, responseOf(entry));
    return send(response, 404, { error: 'Server not found' });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    base,
    listRequests: () => listRequests,
    misbehave(how: RegistryMisbehaviour) {
      misbehave = how;
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

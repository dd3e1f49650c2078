import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { onTestFinished } from 'vitest';

export interface SeenRequest {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: Buffer;
}

export type Route = (request: SeenRequest, response: ServerResponse, index: number) => unknown;

/**
 * A real HTTP server on 127.0.0.1 for exact control: each route sees the
 * request as it arrived (and how many came before it on that path), and the
 * test sees every request and connection.
 */
export async function startLoopbackServer(routes: Record<string, Route>) {
  const seen: SeenRequest[] = [];
  const counts = new Map<string, number>();
  let connections = 0;
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const entry: SeenRequest = { method: request.method ?? '', url: request.url ?? '', headers: request.headers, body: Buffer.concat(chunks) };
      seen.push(entry);
      const path = entry.url.split('?')[0]!;
      const route = routes[path];
      const index = counts.get(path) ?? 0;
      counts.set(path, index + 1);
      if (!route) {
        response.writeHead(404, { 'Content-Type': 'text/plain' }).end(`no route ${path}`);
        return;
      }
      Promise.resolve(route(entry, response, index)).catch((error: unknown) => {
        if (!response.headersSent) response.writeHead(500).end(String(error));
      });
    });
  });
  server.on('connection', () => connections++);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  onTestFinished(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });
  return {
    port,
    base: `http://127.0.0.1:${port}`,
    host: `127.0.0.1:${port}`,
    seen,
    connections: () => connections,
    requestsTo: (path: string) => seen.filter((request) => request.url.split('?')[0] === path),
  };
}

export function json(response: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  response.writeHead(status, { 'Content-Type': 'application/json', ...headers }).end(JSON.stringify(body));
}

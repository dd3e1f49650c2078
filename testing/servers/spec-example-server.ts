import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { SeenRequest } from '../harness/loopback-server.js';

type Json = Record<string, unknown>;
const object = (value: unknown): Json => (value && typeof value === 'object' && !Array.isArray(value) ? (value as Json) : {});

/** The example a description gives for an operation's success answer (OpenAPI 3 `example`/`examples`, Swagger 2.0 `examples`). */
function successExample(operation: Json): { status: number; body: unknown } | null {
  for (const [status, raw] of Object.entries(object(operation.responses))) {
    if (!/^2\d\d$/.test(status)) continue;
    const response = object(raw);
    const media = object(object(response.content)['application/json']);
    const examples = Object.values(object(media.examples)).map((example) => object(example).value);
    const body = media.example ?? examples[0] ?? object(response.examples)['application/json'];
    if (body !== undefined) return { status: Number(status), body };
  }
  return null;
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** `/pets/{id}` matches `/pets/7`: each templated part is one path segment. */
function pathPattern(basePath: string, path: string): RegExp {
  return new RegExp(`^${escapeRegExp(basePath)}${path.split(/\{[^}]+\}/).map(escapeRegExp).join('[^/]+')}$`);
}

/**
 * A real server on 127.0.0.1 that answers each operation of a (dereferenced)
 * API description with the example the description gives for it, under
 * `basePath`: an API as its own authors show it, for imported tools to run
 * against. Used by unit tests and e2e alike, so it does not close itself.
 */
export async function startSpecExampleServer(doc: Json, basePath = '') {
  const routes = Object.entries(object(doc.paths)).flatMap(([path, item]) =>
    Object.entries(object(item)).map(([method, operation]) => ({
      method: method.toUpperCase(),
      pattern: pathPattern(basePath, path),
      answer: successExample(object(operation)),
    })),
  );
  const seen: SeenRequest[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      seen.push({ method: request.method ?? '', url: request.url ?? '', headers: request.headers, body: Buffer.concat(chunks) });
      const path = (request.url ?? '').split('?')[0]!;
      const route = routes.find((candidate) => candidate.method === request.method && candidate.pattern.test(path));
      if (!route?.answer) {
        response.writeHead(404, { 'Content-Type': 'application/json' }).end(JSON.stringify({ message: `no example for ${request.method} ${path}` }));
        return;
      }
      response.writeHead(route.answer.status, { 'Content-Type': 'application/json' }).end(JSON.stringify(route.answer.body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  const close = async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  };
  return { base: `http://127.0.0.1:${port}`, host: `127.0.0.1:${port}`, seen, close };
}

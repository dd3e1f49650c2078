import type { IncomingMessage, ServerResponse } from 'node:http';

/** A web-standard MCP handler: a session transport's `handleRequest`, or `createMcpHandler(…).fetch`. */
export type WebMcpHandler = (request: Request, options: { parsedBody?: unknown }) => Promise<Response>;

/** Answers a Node request, whose body the endpoint has already read and checked, with a web-standard handler. */
export type NodeMcpHandler = (request: IncomingMessage, response: ServerResponse, parsedBody: unknown) => Promise<void>;

/**
 * A web-standard MCP handler answering Node requests, each event written as it comes.
 *
 * Neither adapter the SDK ships fits: its Node transport goes through @hono/node-server, which holds a stream's
 * headers back for a timer tick (at least a millisecond) when its first event is already there, as a priming event
 * always is, so every call of a session waited for it (npm run bench -- mcp-server); and `toNodeHandler` serialises
 * the parsed body again (a body nested deep enough to parse throws there: a 500) and never sends the headers of a
 * stream that starts quiet (a 2025 client's GET stream waited forever for its response).
 */
export function servedFromWeb(handle: WebMcpHandler, { followsClient = false }: { followsClient?: boolean } = {}): NodeMcpHandler {
  return async (request, response, parsedBody) => {
    // The request's signal, for a handler that stops work when its client leaves; each costs, so only where asked.
    const gone = followsClient ? new AbortController() : null;
    let finished = false;
    let reader: ReadableStreamDefaultReader<Uint8Array> | null = null;
    response.once('close', () => {
      if (finished) return;
      gone?.abort();
      reader?.cancel().catch(() => undefined);
    });
    const headers = new Headers();
    for (const [name, value] of Object.entries(request.headers)) {
      if (value === undefined || name.startsWith(':')) continue;
      for (const item of Array.isArray(value) ? value : [value]) headers.append(name, item);
    }
    // The body was read already: the handler takes it parsed, so the request carries none.
    headers.delete('content-length');
    headers.delete('transfer-encoding');
    const url = `http://${request.headers.host ?? '127.0.0.1'}${request.url ?? '/'}`;
    const webRequest = new Request(url, { method: request.method ?? 'GET', headers, ...(gone ? { signal: gone.signal } : {}) });
    const answer = await handle(webRequest, parsedBody === undefined ? {} : { parsedBody });
    response.writeHead(answer.status, Object.fromEntries(answer.headers));
    if (!answer.body || response.destroyed) {
      finished = true;
      response.end();
      if (answer.body) await answer.body.cancel().catch(() => undefined);
      return;
    }
    // An event stream may stay quiet a long time: its client learns now that it is open.
    holdUntilNextTick(response);
    response.flushHeaders();
    reader = answer.body.getReader();
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done || response.destroyed) break;
        holdUntilNextTick(response);
        if (!response.write(value)) await drainedOrGone(response);
      }
    } catch {
      // The stream broke, or was cancelled because the client left: there is no one left to tell.
    } finally {
      finished = true;
      holdUntilNextTick(response);
      response.end();
    }
  };
}

/**
 * What is written to the response until the current burst of work is done goes out in one write: the headers with
 * a priming event, a quick answer with the stream's end. Each write is a system call and a packet for the client.
 */
function holdUntilNextTick(response: ServerResponse): void {
  if (response.writableCorked > 0) return;
  response.cork();
  process.nextTick(() => response.uncork());
}

/** Until the response takes more, or its client has gone. */
function drainedOrGone(response: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      response.off('drain', done);
      response.off('close', done);
      resolve();
    };
    response.once('drain', done);
    response.once('close', done);
  });
}

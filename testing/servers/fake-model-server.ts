import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One server-sent event; `data` objects are sent as JSON, strings as they are. */
export interface SseEvent {
  event?: string;
  data: unknown;
}

export type FakeReply =
  | {
      kind: 'sse';
      events: SseEvent[];
      /** Pause before each event, to watch streaming (and cancel it). */
      delayMs?: number;
      /** After the events: close the response (default) or keep it open until the client goes. */
      end?: 'close' | 'hang';
      /** Line ends: "\n" (default) or "\r\n", as Google's servers send. */
      lineEnd?: '\n' | '\r\n';
    }
  | { kind: 'json'; status: number; body: unknown };

export interface SeenModelRequest {
  method: string;
  path: string;
  /** The query string, without "?" ('' when none). */
  query: string;
  headers: IncomingMessage['headers'];
  body: Record<string, unknown>;
}

export interface FakeModelServer {
  /** http://127.0.0.1:PORT */
  url: string;
  /** Every request as it arrived, bodies parsed. */
  requests: SeenModelRequest[];
  /** Replies for the next model requests, used in order; more can be pushed at any time. */
  replies: FakeReply[];
  /** Requests whose client went away before the reply ended (a cancel). */
  abandoned: number;
  close(): Promise<void>;
}

export interface FakeModelServerOptions {
  /** The path model requests go to: /v1/chat/completions (OpenAI), /v1/messages (Anthropic), or a pattern (Gemini's names the model). */
  completionPath: string | RegExp;
  /** Where the model list is (default /v1/models). */
  modelsPath?: string;
  /** The body GET of the model list answers with; without it, 404. */
  models?: unknown;
  replies?: FakeReply[];
  /** Status and body for every request, checked first (a server that refuses a key, say). */
  refuse?: (request: SeenModelRequest) => { status: number; body: unknown } | null;
}

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * A provider's server on 127.0.0.1 that the real SDKs talk to: it plays
 * back scripted replies in the provider's wire format, byte for byte as the
 * test wrote them, quirks included.
 */
export async function startFakeModelServer(options: FakeModelServerOptions): Promise<FakeModelServer> {
  const state: FakeModelServer = { url: '', requests: [], replies: [...(options.replies ?? [])], abandoned: 0, close: async () => undefined };

  async function respond(seen: SeenModelRequest, response: ServerResponse): Promise<void> {
    const refusal = options.refuse?.(seen);
    if (refusal) return void response.writeHead(refusal.status, { 'content-type': 'application/json' }).end(JSON.stringify(refusal.body));
    if (seen.method === 'GET' && seen.path === (options.modelsPath ?? '/v1/models')) {
      if (options.models === undefined) return void response.writeHead(404, { 'content-type': 'application/json' }).end('{"error":{"message":"Not found"}}');
      return void response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(options.models));
    }
    const completion = typeof options.completionPath === 'string' ? seen.path === options.completionPath : options.completionPath.test(seen.path);
    if (seen.method !== 'POST' || !completion) {
      return void response.writeHead(404, { 'content-type': 'application/json' }).end('{"error":{"message":"No such route"}}');
    }
    const reply = state.replies.shift();
    if (!reply) return void response.writeHead(500, { 'content-type': 'application/json' }).end('{"error":{"message":"The fake server has no reply left"}}');
    if (reply.kind === 'json') return void response.writeHead(reply.status, { 'content-type': 'application/json' }).end(JSON.stringify(reply.body));
    let gone = false;
    response.on('close', () => {
      if (!response.writableFinished) {
        gone = true;
        state.abandoned++;
      }
    });
    response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
    for (const event of reply.events) {
      if (reply.delayMs) await wait(reply.delayMs);
      if (gone) return;
      const data = typeof event.data === 'string' ? event.data : JSON.stringify(event.data);
      const end = reply.lineEnd ?? '\n';
      response.write(`${event.event ? `event: ${event.event}${end}` : ''}data: ${data}${end}${end}`);
    }
    if (reply.end === 'hang') return;
    response.end();
  }

  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      let body: Record<string, unknown>;
      try {
        body = text ? (JSON.parse(text) as Record<string, unknown>) : {};
      } catch {
        body = { unparsed: text };
      }
      const [path = '', query = ''] = (request.url ?? '').split('?');
      const seen: SeenModelRequest = { method: request.method ?? '', path, query, headers: request.headers, body };
      state.requests.push(seen);
      respond(seen, response).catch((error: unknown) => {
        if (!response.headersSent) response.writeHead(500).end(String(error));
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  state.close = async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  };
  return state;
}

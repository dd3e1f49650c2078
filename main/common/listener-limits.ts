import { createServer, STATUS_CODES, type RequestListener, type Server, type ServerOptions } from 'node:http';
import type { Duplex } from 'node:stream';

/** How long a client may take to send a request's headers, and the whole request (its body included). */
export interface ListenerLimits {
  headersTimeoutMs: number;
  requestTimeoutMs: number;
}

/**
 * Every listener's limits. Node's own are five minutes for a request, so a
 * chunked body that never ends held a connection that long; a loopback client
 * sends even an 80 MB import in well under a second. Responses (event streams)
 * are not limited by these.
 */
export const LISTENER_LIMITS: ListenerLimits = { headersTimeoutMs: 10_000, requestTimeoutMs: 60_000 };

/** `createServer` options for a listener with these limits; Node checks them every `connectionsCheckingInterval`. */
export function listenerOptions(limits: ListenerLimits = LISTENER_LIMITS): ServerOptions {
  const headersTimeout = Math.min(limits.headersTimeoutMs, limits.requestTimeoutMs);
  return { headersTimeout, requestTimeout: limits.requestTimeoutMs, connectionsCheckingInterval: Math.min(1_000, headersTimeout) };
}

/** Node's parser errors a client can cause, as the status and code every other error of ours has. */
function clientErrorAnswer(error: NodeJS.ErrnoException): { status: number; code: string; message: string } {
  if (error.code === 'HPE_HEADER_OVERFLOW') return { status: 431, code: 'payload_too_large', message: "The request's headers are larger than Toolbelt takes; send fewer or shorter headers." };
  if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT') return { status: 408, code: 'invalid_params', message: 'The request took too long to arrive; send it again whole.' };
  return { status: 400, code: 'invalid_params', message: 'The request is not valid HTTP.' };
}

/**
 * A listener with every listener's limits whose own refusals (headers too
 * large, a request that is not HTTP, one that arrives too slowly) have the
 * `{ error: { code, message } }` body and a policy like every other answer;
 * Node's default is a bare status line with no body.
 */
export function createLimitedServer(limits: ListenerLimits | undefined, handler: RequestListener): Server {
  const server = createServer(listenerOptions(limits), handler);
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => {
    // Nothing can be said to a client that went away, nor once a response's headers went out on this connection (Node's own rule).
    if (error.code === 'ECONNRESET' || !socket.writable || (socket as Duplex & { _httpMessage?: { _headerSent?: boolean } })._httpMessage?._headerSent) {
      socket.destroy();
      return;
    }
    const { status, code, message } = clientErrorAnswer(error);
    const body = JSON.stringify({ error: { code, message } });
    socket.end(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
        `Content-Security-Policy: default-src 'none'; frame-ancestors 'none'\r\nX-Content-Type-Options: nosniff\r\nConnection: close\r\n\r\n${body}`,
    );
  });
  return server;
}

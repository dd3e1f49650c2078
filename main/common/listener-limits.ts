import type { ServerOptions } from 'node:http';

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

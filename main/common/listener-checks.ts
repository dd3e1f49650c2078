import { timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';

/** Headers every response carries, page or API. */
export function applyCommonHeaders(response: ServerResponse, csp: string): void {
  response.setHeader('Content-Security-Policy', csp);
  response.setHeader('X-Content-Type-Options', 'nosniff');
  response.setHeader('Referrer-Policy', 'no-referrer');
  response.setHeader('Cross-Origin-Opener-Policy', 'same-origin');
  response.setHeader('Cross-Origin-Resource-Policy', 'same-origin');
  response.setHeader('X-Frame-Options', 'DENY');
}

/**
 * The names this host answers to. A page on another site that resolves its
 * own name to 127.0.0.1 (DNS rebinding) sends its own Host and is refused.
 */
export function ownAuthorities(port: number): (authority: string) => boolean {
  const own = new Set([`127.0.0.1:${port}`, `localhost:${port}`]);
  return (authority) => own.has(authority);
}

export type RequestVerdict = { ok: true } | { ok: false; status: 401 | 403; code: 'unauthorized' | 'forbidden'; message: string };

export function checkOrigin(request: IncomingMessage, answersTo: (authority: string) => boolean): RequestVerdict {
  const host = request.headers.host;
  if (!host || !answersTo(host.toLowerCase())) {
    return { ok: false, status: 403, code: 'forbidden', message: 'This host only answers requests addressed to 127.0.0.1.' };
  }
  const origin = request.headers.origin;
  if (origin !== undefined && !isOwnOrigin(origin, answersTo)) {
    return { ok: false, status: 403, code: 'forbidden', message: 'Cross-origin requests are refused.' };
  }
  if (request.headers['sec-fetch-site'] === 'cross-site') {
    return { ok: false, status: 403, code: 'forbidden', message: 'Cross-site requests are refused.' };
  }
  return { ok: true };
}

function isOwnOrigin(origin: string, answersTo: (authority: string) => boolean): boolean {
  try {
    const url = new URL(origin);
    return url.protocol === 'http:' && answersTo(url.host.toLowerCase());
  } catch {
    return false;
  }
}

export function checkToken(request: IncomingMessage, token: string, refusal = 'Missing or wrong access token. Open the URL the host printed (it ends in #token=…).'): RequestVerdict {
  const header = request.headers.authorization ?? '';
  const match = /^Bearer\s+(\S+)$/i.exec(header);
  if (match && constantTimeEquals(match[1]!, token)) return { ok: true };
  return { ok: false, status: 401, code: 'unauthorized', message: refusal };
}

function constantTimeEquals(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

import { createHash, createHmac } from 'node:crypto';
import type { HttpImpl } from '../../../shared/schemas/http-impl.js';
import { InvokeFailure } from '../invoke-error.js';

type HmacAuth = Extract<NonNullable<HttpImpl['auth']>, { kind: 'hmac' }>;

function timestampOf(format: HmacAuth['timestampFormat'], nowMs: number): string {
  if (format === 'unix-ms') return String(nowMs);
  if (format === 'iso') return new Date(nowMs).toISOString();
  return String(Math.floor(nowMs / 1000));
}

/**
 * The headers that sign a request with HMAC-SHA256: the canonical text the
 * tool describes ({method}, {path}, {query}, {host}, {timestamp},
 * {bodyHash}, {body}) keyed with the secret, in hex or base64, and the
 * timestamp it signed when the tool names a header for it.
 */
export function hmacHeaders(auth: HmacAuth, key: string, request: { method: string; url: URL; body: string | FormData | undefined }, nowMs: number): [string, string][] {
  if (request.body instanceof FormData) throw new InvokeFailure('invalid_request', 'HMAC signing needs a text or JSON body; a multipart body cannot be signed. The request was not sent.');
  const body = request.body ?? '';
  const timestamp = timestampOf(auth.timestampFormat, nowMs);
  const values: Record<string, string> = {
    method: request.method,
    path: request.url.pathname,
    query: request.url.search.slice(1),
    host: request.url.host,
    timestamp,
    bodyHash: createHash('sha256').update(body).digest('hex'),
    body,
  };
  // One pass: a value that holds "{path}" is not replaced again.
  const canonical = auth.canonical.replace(/\{(method|path|query|host|timestamp|bodyHash|body)\}/g, (_whole, name: string) => values[name]!);
  const signature = createHmac('sha256', key).update(canonical).digest(auth.encoding);
  return [[auth.header, `${auth.prefix ?? ''}${signature}`], ...(auth.timestampHeader ? ([[auth.timestampHeader, timestamp]] as [string, string][]) : [])];
}

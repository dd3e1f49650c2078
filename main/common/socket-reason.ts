/**
 * The innermost cause's code (ECONNREFUSED, ECONNRESET, UND_ERR_SOCKET…), or its message: fetch says only
 * "fetch failed" and wraps the socket's error, which an SDK may wrap again. Null when nothing is underneath.
 */
export function socketReason(cause: unknown): string | null {
  type Link = { cause?: Link; code?: unknown; message?: unknown } | undefined;
  let current = cause as Link;
  for (let depth = 0; current?.cause && depth < 5; depth++) current = current.cause;
  if (!current) return null;
  if (typeof current.code === 'string') return current.code;
  return typeof current.message === 'string' ? current.message : null;
}

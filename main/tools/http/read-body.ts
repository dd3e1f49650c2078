import { readUpTo } from '../../common/read-up-to.js';
import { InvokeFailure } from '../invoke-error.js';

export const DEFAULT_MAX_RESPONSE_BYTES = 10 * 1024 * 1024;

/** Reads a response body as UTF-8 text, giving up (and closing the stream) past `maxBytes`. */
export async function readBodyWithLimit(response: Response, maxBytes: number): Promise<{ text: string; size: number }> {
  const declared = Number(response.headers.get('content-length') ?? NaN);
  if (declared > maxBytes) {
    await response.body?.cancel().catch(() => {});
    throw tooLarge(maxBytes, declared);
  }
  if (!response.body) return { text: '', size: 0 };
  // A declared size within the limit can be read in one go (undici's fast path).
  if (Number.isFinite(declared)) return { text: await response.text(), size: declared };
  const read = await readUpTo(response, maxBytes);
  if (read.truncated) throw tooLarge(maxBytes);
  return { text: read.text, size: read.size };
}

export function tooLarge(maxBytes: number, declared?: number): InvokeFailure {
  const size = declared === undefined ? 'more than that' : `${declared} bytes`;
  return new InvokeFailure('response_too_large', `The response is larger than the tool's limit of ${maxBytes} bytes (${size}); reading stopped.`);
}

import type { IncomingMessage } from 'node:http';
import { ToolbeltError } from '../../shared/errors.js';

export const MAX_BODY_BYTES = 10 * 1024 * 1024;

/** Reads and parses a JSON request body; an empty body is `undefined`. */
export async function readJsonBody(request: IncomingMessage, maxBytes = MAX_BODY_BYTES): Promise<unknown> {
  const declared = Number(request.headers['content-length'] ?? 0);
  if (declared > maxBytes) throw tooLarge(maxBytes);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > maxBytes) throw tooLarge(maxBytes);
    chunks.push(chunk);
  }
  if (size === 0) return undefined;
  const contentType = request.headers['content-type'] ?? '';
  if (!/^application\/json\b/i.test(contentType)) {
    throw new ToolbeltError('unsupported_media_type', 'Send the request body as JSON with Content-Type: application/json.');
  }
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch (error) {
    throw new ToolbeltError('invalid_params', `The request body is not valid JSON: ${(error as Error).message}`);
  }
}

function tooLarge(maxBytes: number): ToolbeltError {
  return new ToolbeltError('payload_too_large', `The request body is larger than ${maxBytes} bytes.`);
}

import type { IncomingMessage } from 'node:http';
import { ToolbeltError } from '../../shared/errors.js';

export const MAX_BODY_BYTES = 10 * 1024 * 1024;

/** Reads and parses a JSON request body; an empty body is `undefined`. */
export async function readJsonBody(request: IncomingMessage, maxBytes = MAX_BODY_BYTES): Promise<unknown> {
  const declared = Number(request.headers['content-length'] ?? 0);
  if (declared > maxBytes) throw tooLarge(maxBytes);
  const { chunks, size } = await readChunks(request, maxBytes);
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

/**
 * The body's chunks, stopped at maxBytes. By its events rather than its async iterator, which costs more than the
 * rest of reading a small body: every call of the MCP server and the browser host reads one.
 */
function readChunks(request: IncomingMessage, maxBytes: number): Promise<{ chunks: Buffer[]; size: number }> {
  if (request.readableEnded) return Promise.resolve({ chunks: [], size: 0 });
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const stop = (error: Error | null) => {
      request.off('data', onData);
      request.off('end', onEnd);
      request.off('error', stop);
      request.off('close', onClose);
      if (error) reject(error);
      else resolve({ chunks, size });
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBytes) {
        // Nothing more is read: a flood of a body stops here, its connection with it.
        stop(tooLarge(maxBytes));
        request.destroy();
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = () => stop(null);
    const onClose = () => stop(Object.assign(new Error('The request was closed before its body arrived.'), { code: 'ECONNRESET' }));
    request.on('data', onData);
    request.once('end', onEnd);
    request.once('error', stop);
    request.once('close', onClose);
  });
}

function tooLarge(maxBytes: number): ToolbeltError {
  return new ToolbeltError('payload_too_large', `The request body is larger than ${maxBytes} bytes.`);
}

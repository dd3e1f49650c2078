import type { Transform } from 'node:stream';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import { Agent, request } from 'undici';
import { readBodyWithLimit, tooLarge } from './read-body.js';

export interface OutgoingRequest {
  url: URL;
  method: string;
  headers: Headers;
  body: string | FormData | undefined;
  signal: AbortSignal;
}

export interface IncomingResponse {
  status: number;
  /** Lower-case names; a repeated header's values joined with ", ". */
  headers: Record<string, string>;
  /** The body as UTF-8 text, decompressed; stops past maxBytes with response_too_large. */
  readText(maxBytes: number): Promise<{ text: string; size: number }>;
  /** The body as it arrives, decompressed, chunk by chunk (an event stream); the reader counts and stops. */
  chunks(): AsyncIterable<Uint8Array>;
  /** Lets go of a body that will not be read (a redirect's). */
  discard(): Promise<void>;
  /** Closes the connection mid-body (an event stream read no further): a read in progress ends. */
  close(): void;
}

/** Sends one request, following no redirect: the executor checks every hop itself. */
export type HttpSend = (request: OutgoingRequest) => Promise<IncomingResponse>;

/** Over any fetch (an injected one in tests, or for multipart bodies). */
export function fetchTransport(fetchImpl: typeof globalThis.fetch): HttpSend {
  return async ({ url, method, headers, body, signal }) => {
    const response = await fetchImpl(url, { method, headers, body, redirect: 'manual', signal });
    const record: Record<string, string> = {};
    response.headers.forEach((value, name) => (record[name] = value));
    // A stream being read is locked to its reader: closing it mid-read goes through that reader.
    let reader: ReadableStreamDefaultReader<Uint8Array> | null = null;
    return {
      status: response.status,
      headers: record,
      readText: (maxBytes) => readBodyWithLimit(response, maxBytes),
      async *chunks() {
        if (!response.body) return;
        reader = (response.body as ReadableStream<Uint8Array>).getReader();
        for (;;) {
          const { value, done } = await reader.read();
          if (done) return;
          yield value;
        }
      },
      discard: async () => void (await response.body?.cancel().catch(() => {})),
      close: () => {
        const stream = reader ?? response.body;
        // Closing is letting go: a stream that fails to cancel is gone all the same.
        if (stream) stream.cancel().catch(() => {});
      },
    };
  };
}

const DECOMPRESSORS: Record<string, () => Transform> = {
  gzip: createGunzip,
  'x-gzip': createGunzip,
  deflate: createInflate,
  br: createBrotliDecompress,
};

async function readLimited(stream: AsyncIterable<Buffer>, maxBytes: number, onTooLarge: () => void): Promise<{ text: string; size: number }> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream) {
    size += chunk.byteLength;
    if (size > maxBytes) {
      onTooLarge();
      throw tooLarge(maxBytes);
    }
    chunks.push(chunk);
  }
  return { text: Buffer.concat(chunks).toString('utf8'), size };
}

/**
 * undici's request API: the engine under Node's fetch without the WHATWG
 * streams and Response objects, about three times less work per call on
 * loopback. Bodies are decompressed here (fetch did that itself), and the
 * size limit counts decompressed bytes. Multipart bodies go through fetch,
 * which encodes FormData.
 */
export function undiciTransport(): { send: HttpSend; close: () => Promise<void> } {
  const dispatcher = new Agent({ keepAliveTimeout: 10_000 });
  const viaFetch = fetchTransport(globalThis.fetch);
  const send: HttpSend = async (outgoing) => {
    if (outgoing.body instanceof FormData) return viaFetch(outgoing);
    const response = await request(outgoing.url, {
      method: outgoing.method as 'GET',
      headers: Object.fromEntries(outgoing.headers),
      body: outgoing.body,
      signal: outgoing.signal,
      dispatcher,
    });
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(response.headers)) {
      if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value;
    }
    const body = response.body;
    const decompressed = (): AsyncIterable<Buffer> => {
      const encoding = headers['content-encoding']?.trim().toLowerCase();
      const decompress = encoding ? DECOMPRESSORS[encoding] : undefined;
      if (!decompress) return body;
      const inflated = body.pipe(decompress());
      // pipe() does not pass on the source's errors; a connection lost mid-body must end the read.
      body.once('error', (error) => inflated.destroy(error));
      inflated.once('close', () => body.destroy());
      return inflated;
    };
    return {
      status: response.statusCode,
      headers,
      async readText(maxBytes) {
        const declared = Number(headers['content-length'] ?? NaN);
        const encoding = headers['content-encoding']?.trim().toLowerCase();
        const decompress = encoding ? DECOMPRESSORS[encoding] : undefined;
        if (!decompress) {
          if (declared > maxBytes) {
            body.destroy();
            throw tooLarge(maxBytes, declared);
          }
          if (Number.isFinite(declared)) return { text: await body.text(), size: declared };
          return readLimited(body, maxBytes, () => body.destroy());
        }
        const inflated = body.pipe(decompress());
        // pipe() does not pass on the source's errors; a connection lost mid-body must end the read.
        body.once('error', (error) => inflated.destroy(error));
        return readLimited(inflated, maxBytes, () => {
          body.destroy();
          inflated.destroy();
        });
      },
      chunks: decompressed,
      discard: () => body.dump().then(() => undefined, () => undefined),
      close: () => void body.destroy(),
    };
  };
  return { send, close: () => dispatcher.close() };
}

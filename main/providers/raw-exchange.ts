import type { RawExchange } from '../../shared/schemas/raw-exchange.js';

/** Each side of an exchange is kept up to this many characters: enough to see what a server sent, not a copy of every answer. */
const RAW_SIDE_CHARS = 256_000;
const SECRET_HEADERS = new Set(['authorization', 'x-api-key', 'api-key', 'cookie', 'proxy-authorization', 'x-goog-api-key']);
const SECRET_QUERY = /^(key|api[-_]?key|access[-_]?token)$/i;

/** Where a run's exchanges go: the sink decides how many it keeps. */
export interface ExchangeSink {
  add(exchange: RawExchange): void;
}

/**
 * Headers a provider request carries so that recordingFetch knows whose
 * exchange it is; recordingFetch takes them off before the request leaves.
 * A header rather than an AsyncLocalStorage: on Node 20 a live one makes
 * every promise in the process pay for its hooks, on every streamed token.
 */
export type ExchangeTag = Readonly<Record<string, string>>;

const TAG_HEADER = 'x-toolbelt-exchange';
const sinks = new Map<string, ExchangeSink>();
let lastTag = 0;

/** Runs `work` with a tag whose requests (through recordingFetch) are added to `into` until the work ends. */
export async function recordExchanges<T>(into: ExchangeSink, work: (tag: ExchangeTag) => Promise<T>): Promise<T> {
  const id = String(++lastTag);
  sinks.set(id, into);
  try {
    return await work({ [TAG_HEADER]: id });
  } finally {
    sinks.delete(id);
  }
}

/**
 * A fetch for the provider SDKs that, for a request tagged by
 * recordExchanges, keeps what went over the wire: the request (keys masked)
 * and the answer as it streamed, read as the SDK reads it. Untagged, it is
 * the fetch it wraps.
 */
export function recordingFetch(inner: typeof globalThis.fetch): typeof globalThis.fetch {
  return async (input, init) => {
    // Read from the arguments, not a Request made of them: that would take the body the SDK is about to send.
    const fromRequest = input instanceof Request ? input : undefined;
    const headers = new Headers(init?.headers ?? fromRequest?.headers);
    const tag = headers.get(TAG_HEADER);
    if (tag === null) return inner(input, init);
    headers.delete(TAG_HEADER);
    const sent = { ...init, headers };
    const into = sinks.get(tag);
    if (!into) return inner(input, sent);
    const exchange: RawExchange = {
      startedAt: new Date().toISOString(),
      method: init?.method ?? fromRequest?.method ?? 'GET',
      url: maskedUrl(fromRequest?.url ?? (input instanceof URL ? input.href : (input as string))),
      requestHeaders: maskedHeaders(headers),
      requestBody: capped(typeof init?.body === 'string' ? init.body : ''),
      responseBody: '',
      truncated: false,
    };
    into.add(exchange);
    let response: Response;
    try {
      response = await inner(input, sent);
    } catch (error) {
      exchange.error = error instanceof Error ? error.message : String(error);
      throw error;
    }
    exchange.status = response.status;
    exchange.responseHeaders = maskedHeaders(response.headers);
    if (!response.body) return response;
    const decoder = new TextDecoder();
    const keep = (text: string) => {
      const room = RAW_SIDE_CHARS - exchange.responseBody.length;
      if (text.length > room) exchange.truncated = true;
      if (room > 0) exchange.responseBody += text.slice(0, room);
    };
    // A pull source over the body's own reader, not a TransformStream: piping costs several promises per
    // network chunk, and a streamed answer is thousands of chunks. Once the copy is full, chunks pass as they are.
    const reader: ReadableStreamDefaultReader<Uint8Array> = response.body.getReader();
    const body = new ReadableStream<Uint8Array>(
      {
        async pull(controller) {
          const { done, value } = await reader.read();
          if (done) {
            if (!exchange.truncated) keep(decoder.decode());
            controller.close();
            return;
          }
          if (!exchange.truncated) keep(decoder.decode(value, { stream: true }));
          controller.enqueue(value);
        },
        cancel: (reason) => reader.cancel(reason),
      },
      { highWaterMark: 0 },
    );
    return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
  };
}

function capped(text: string): string {
  return text.length > RAW_SIDE_CHARS ? `${text.slice(0, RAW_SIDE_CHARS)}…` : text;
}

function maskedHeaders(headers: Headers): Record<string, string> {
  const out: Record<string, string> = {};
  headers.forEach((value, name) => {
    out[name] = SECRET_HEADERS.has(name.toLowerCase()) ? '•••' : value;
  });
  return out;
}

function maskedUrl(text: string): string {
  const url = new URL(text);
  for (const name of [...url.searchParams.keys()]) if (SECRET_QUERY.test(name)) url.searchParams.set(name, '•••');
  return url.href;
}

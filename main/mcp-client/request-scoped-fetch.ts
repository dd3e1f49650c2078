import type { FetchLike } from '@modelcontextprotocol/client';
import { forwardAbort } from '../common/signals.js';

/**
 * fetch for the SDK's HTTP transports, which hand one connection-wide signal
 * to every request. undici keeps a listener on that signal per request until
 * the request is garbage collected, so a busy connection collects thousands
 * (and Node's leak warnings). Here each request gets a signal of its own,
 * tied to the connection's only while the request lives: until its body is
 * read to the end, fails or is cancelled. Closing the connection still ends
 * every request and stream.
 */
export function requestScopedFetch(base: FetchLike = fetch): FetchLike {
  return async (url, init) => {
    const parent = init?.signal;
    if (!parent) return base(url, init);
    const own = new AbortController();
    const release = forwardAbort(parent, own);
    let response: Response;
    try {
      response = await base(url, { ...init, signal: own.signal });
    } catch (error) {
      release();
      throw error;
    }
    if (!response.body) {
      release();
      return response;
    }
    const reader: ReadableStreamDefaultReader<Uint8Array> = response.body.getReader();
    const body = new ReadableStream<Uint8Array>({
      async pull(controller) {
        try {
          const chunk = await reader.read();
          if (chunk.done) {
            release();
            controller.close();
          } else controller.enqueue(chunk.value);
        } catch (error) {
          release();
          controller.error(error);
        }
      },
      cancel(reason) {
        release();
        return reader.cancel(reason);
      },
    });
    return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
  };
}

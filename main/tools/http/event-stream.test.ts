import { describe, expect, it } from 'vitest';
import { readEventStream } from './event-stream.js';
import { fetchTransport } from './transport.js';

/** An event stream whose body arrives in exactly these chunks of bytes. */
async function streamOf(chunks: Uint8Array[]) {
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(chunk);
      controller.close();
    },
  });
  const send = fetchTransport(() => Promise.resolve(new Response(body, { headers: { 'Content-Type': 'text/event-stream' } })));
  const response = await send({ url: new URL('http://stream.test/'), method: 'GET', headers: new Headers(), body: undefined, signal: new AbortController().signal });
  return readEventStream(response, { maxBytes: 1_000_000, idleTimeoutMs: 30_000, deadline: new AbortController().signal, cancelled: () => false });
}

const bytes = (text: string) => new TextEncoder().encode(text);

describe('reading an event stream’s bytes as UTF-8', () => {
  it('drops the byte order mark it starts with, even split over chunks, so its first field is read', async () => {
    const whole = bytes('\ufeffdata: {"n":1}\n\ndata: \ufeffkept\n\n');
    expect((await streamOf([whole])).events).toEqual([{ n: 1 }, '\ufeffkept']);
    expect((await streamOf([whole.subarray(0, 1), whole.subarray(1, 2), whole.subarray(2)])).events).toEqual([{ n: 1 }, '\ufeffkept']);
    expect((await streamOf([new Uint8Array(0), whole])).events).toEqual([{ n: 1 }, '\ufeffkept']);
  });

  it('keeps a character whose bytes are split between chunks whole, and marks bytes that are no UTF-8 as U+FFFD', async () => {
    const text = bytes('data: {"word":"café 😀"}\n\n');
    const at = text.indexOf(0xc3) + 1;
    const emoji = text.indexOf(0xf0) + 2;
    const read = await streamOf([text.subarray(0, at), text.subarray(at, emoji), text.subarray(emoji)]);
    expect(read.events).toEqual([{ word: 'café 😀' }]);
    expect(read.text).toBe('data: {"word":"café 😀"}\n\n');
    expect((await streamOf([bytes('data: a'), new Uint8Array([0xff, 0xc3]), bytes('\n\n')])).events).toEqual(['a\ufffd\ufffd']);
  });
});

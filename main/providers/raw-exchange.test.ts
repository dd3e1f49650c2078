import { describe, expect, it } from 'vitest';
import type { RawExchange } from '../../shared/schemas/raw-exchange.js';
import { recordExchanges, recordingFetch, type ExchangeTag } from './raw-exchange.js';

const encoder = new TextEncoder();

/** A fetch answering with the given chunks as a stream, then failing if asked to. */
function streamingFetch(chunks: (string | Uint8Array)[], failAtEnd?: Error): typeof globalThis.fetch {
  return () =>
    Promise.resolve(
      new Response(
        new ReadableStream<Uint8Array>({
          start(controller) {
            for (const chunk of chunks) controller.enqueue(typeof chunk === 'string' ? encoder.encode(chunk) : chunk);
            if (failAtEnd) controller.error(failAtEnd);
            else controller.close();
          },
        }),
        { status: 200, headers: { 'Content-Type': 'text/event-stream' } },
      ),
    );
}

async function readAll(response: Response): Promise<string> {
  return new TextDecoder().decode(await response.arrayBuffer());
}

describe('recording provider exchanges', () => {
  it('keeps the streamed answer up to its limit while the SDK reads every byte, multi-byte characters across chunks included', async () => {
    const exchanges: RawExchange[] = [];
    // "é" is two bytes, sent in two chunks.
    const big = Array.from({ length: 300 }, (_, index) => `data: ${String(index).padEnd(1000, 'x')}\n\n`);
    const fetch = recordingFetch(streamingFetch([new Uint8Array([...encoder.encode('data: '), 0xc3]), new Uint8Array([0xa9, 10, 10]), ...big]));
    const text = await recordExchanges({ add: (exchange) => exchanges.push(exchange) }, async (tag) =>
      readAll(await fetch('http://127.0.0.1:9/v1/chat/completions', { method: 'POST', body: '{}', headers: tag })),
    );
    expect(text).toBe(`data: é\n\n${big.join('')}`);
    const [exchange] = exchanges;
    expect(exchange!.truncated).toBe(true);
    expect(exchange!.responseBody).toBe(text.slice(0, 256_000));
  });

  it('passes a failure in the middle of the answer on to the reader', async () => {
    const fetch = recordingFetch(streamingFetch(['data: a\n\n'], new Error('connection reset')));
    await expect(recordExchanges({ add: () => {} }, async (tag) => readAll(await fetch('http://127.0.0.1:9/x', { headers: tag })))).rejects.toThrow('connection reset');
  });

  it('is the fetch it wraps for a request without a tag', async () => {
    const inner = streamingFetch(['plain']);
    const response = await recordingFetch(inner)('http://127.0.0.1:9/x', {});
    expect(await readAll(response)).toBe('plain');
  });

  it("records each run's requests in its own sink, keys masked, and never sends the tag", async () => {
    const sent: Headers[] = [];
    const answer = streamingFetch(['ok']);
    const fetch = recordingFetch((input, init) => {
      sent.push(new Headers(init?.headers));
      return answer(input, init);
    });
    const first: RawExchange[] = [];
    const second: RawExchange[] = [];
    let leftOver: ExchangeTag = {};
    // Two runs at once: each request goes to the run whose tag it carries.
    await Promise.all([
      recordExchanges({ add: (exchange) => first.push(exchange) }, async (tag) => {
        leftOver = tag;
        await readAll(await fetch('http://127.0.0.1:9/one?key=k1', { headers: { ...tag, authorization: 'Bearer "s3cr3t"' } }));
      }),
      recordExchanges({ add: (exchange) => second.push(exchange) }, async (tag) => readAll(await fetch('http://127.0.0.1:9/two', { headers: tag }))),
    ]);
    expect(first.map((exchange) => exchange.url)).toEqual(['http://127.0.0.1:9/one?key=%E2%80%A2%E2%80%A2%E2%80%A2']);
    expect(first[0]!.requestHeaders).toEqual({ authorization: '•••' });
    expect(first[0]!.responseBody).toBe('ok');
    expect(second.map((exchange) => exchange.url)).toEqual(['http://127.0.0.1:9/two']);
    expect(sent.map((headers) => [...headers.keys()])).toEqual([['authorization'], []]);
    // A tag whose run has ended records nothing and still does not leave.
    await readAll(await fetch('http://127.0.0.1:9/late', { headers: leftOver }));
    expect(first).toHaveLength(1);
    expect([...sent[2]!.keys()]).toEqual([]);
  });
});

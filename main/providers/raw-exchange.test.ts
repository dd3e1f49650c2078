import { describe, expect, it } from 'vitest';
import type { RawExchange } from '../../shared/schemas/raw-exchange.js';
import { recordExchanges, recordingFetch } from './raw-exchange.js';

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
    const text = await recordExchanges({ add: (exchange) => exchanges.push(exchange) }, async () => readAll(await fetch('http://127.0.0.1:9/v1/chat/completions', { method: 'POST', body: '{}' })));
    expect(text).toBe(`data: é\n\n${big.join('')}`);
    const [exchange] = exchanges;
    expect(exchange!.truncated).toBe(true);
    expect(exchange!.responseBody).toBe(text.slice(0, 256_000));
  });

  it('passes a failure in the middle of the answer on to the reader', async () => {
    const fetch = recordingFetch(streamingFetch(['data: a\n\n'], new Error('connection reset')));
    await expect(recordExchanges({ add: () => {} }, async () => readAll(await fetch('http://127.0.0.1:9/x', {})))).rejects.toThrow('connection reset');
  });

  it('is the fetch it wraps outside a recorded run', async () => {
    const inner = streamingFetch(['plain']);
    const response = await recordingFetch(inner)('http://127.0.0.1:9/x', {});
    expect(await readAll(response)).toBe('plain');
  });
});

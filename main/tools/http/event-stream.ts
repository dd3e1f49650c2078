import { StringDecoder } from 'node:string_decoder';
import { createParser } from 'eventsource-parser';
import { InvokeFailure } from '../invoke-error.js';
import { eventValues } from './event-data.js';
import { tooLarge } from './read-body.js';
import type { IncomingResponse } from './transport.js';

/** An event stream that sends no event for this long ends there, unless the tool says otherwise. */
export const DEFAULT_IDLE_TIMEOUT_MS = 30_000;

/** Why reading stopped: the server closed the stream, no event came within the idle timeout, or the call's deadline came. */
export type StreamEnd = 'closed' | 'idle' | 'deadline';

export interface ReadEvents {
  /** Each event's data, JSON-parsed where it is JSON, in order. */
  events: unknown[];
  /** The stream as received (for the trace and a /regex/ extractExpr), at most the size limit. */
  text: string;
  size: number;
  end: StreamEnd;
}

export interface EventStreamOptions {
  maxBytes: number;
  idleTimeoutMs: number;
  /** The attempt's deadline (its abort is the end of reading) and whether the person cancelled the call. */
  deadline: AbortSignal;
  cancelled: () => boolean;
  onEvent?: (data: unknown, count: number) => void;
}

/**
 * Reads a `text/event-stream` answer as its events arrive, with the standard's
 * parsing (eventsource-parser: `data:` over several lines, `event:`, `id:`,
 * comments, `retry:`; an event is dispatched on its blank line). Bounded three
 * ways: the tool's response size (a line or event that never ends counts too),
 * an idle timeout between events, and the call's deadline. A stream a server
 * closes without its final blank line keeps the event it was sending; one
 * that ends by the idle timeout or the deadline keeps what came, unless
 * nothing did (then it is a timeout).
 */
export async function readEventStream(response: IncomingResponse, options: EventStreamOptions): Promise<ReadEvents> {
  const events: unknown[] = [];
  // The data of the events a chunk completed, parsed together once the chunk is read.
  let arrived: string[] = [];
  const takeArrived = () => {
    const values = eventValues(arrived);
    arrived = [];
    for (const value of values) {
      events.push(value);
      options.onEvent?.(value, events.length);
    }
  };
  let overflow = false;
  const parser = createParser({
    maxBufferSize: options.maxBytes,
    onEvent: (message) => void arrived.push(message.data),
    onError: (error) => {
      // A line or an event longer than the whole answer may be: the stream is closed there.
      if (error.type === 'max-buffer-size-exceeded') overflow = true;
    },
  });
  // Set by the idle timer too, which TypeScript's narrowing does not see.
  const state: { end: StreamEnd } = { end: 'closed' };
  // One timer, moved on only when it fires: resetting a timer per event costs more than the event (a flood of small ones).
  // The time of the last event is taken once a chunk: the events of one chunk arrived together.
  let lastEventAt = performance.now();
  let idle: NodeJS.Timeout | undefined;
  function armIdle(delay: number): void {
    idle = setTimeout(() => {
      const quiet = performance.now() - lastEventAt;
      if (quiet < options.idleTimeoutMs) return armIdle(options.idleTimeoutMs - quiet);
      state.end = 'idle';
      response.close();
    }, delay);
  }
  // Node's decoder rather than TextDecoder: with `stream: true` that one took ~20 µs a chunk of a few kilobytes, against
  // ~3 µs. Both keep a character split between chunks for the next; the byte order mark the stream may start with is
  // dropped here, as TextDecoder (and the standard's decoding) does.
  const decoder = new StringDecoder('utf8');
  let started = false;
  const decode = (text: string) => {
    if (started || text === '') return text;
    started = true;
    return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  };
  const received: string[] = [];
  let size = 0;
  armIdle(options.idleTimeoutMs);
  try {
    for await (const chunk of response.chunks()) {
      size += chunk.byteLength;
      if (size > options.maxBytes) throw stop(tooLarge(options.maxBytes));
      const text = decode(decoder.write(chunk));
      received.push(text);
      parser.feed(text);
      if (overflow) throw stop(tooLarge(options.maxBytes));
      if (arrived.length > 0) {
        lastEventAt = performance.now();
        takeArrived();
      }
    }
    // The server closed the stream in the middle of an event (its line or its blank line unsent): what it had
    // sent of it counts, as if the blank line had come. A stream that ended cleanly has nothing pending.
    parser.feed(`${decode(decoder.end())}\n\n`);
    takeArrived();
  } catch (error) {
    if (error instanceof InvokeFailure) throw error;
    if (options.cancelled()) throw new InvokeFailure('cancelled', 'The call was cancelled while its event stream was being read.');
    if (options.deadline.aborted) state.end = 'deadline';
    else if (state.end !== 'idle') throw error;
  } finally {
    clearTimeout(idle);
  }
  const { end } = state;
  if (end !== 'closed' && events.length === 0) {
    const why = end === 'idle' ? `no event came within ${options.idleTimeoutMs} ms` : 'the call timed out before its first event';
    throw new InvokeFailure('timeout', `The event stream ended with no event: ${why}.`);
  }
  return { events, text: received.join(''), size, end };

  function stop(failure: InvokeFailure): InvokeFailure {
    response.close();
    return failure;
  }
}

import { errorFromBody, ToolbeltError } from '../../shared/errors.js';
import type { CoreEvent } from '../../shared/events.js';
import { operations } from '../../shared/operations/index.js';
import { planHttpRequest } from './http-request.js';
import { createSseParser } from './sse.js';
import type { ConnectionStatus, Transport } from './transport.js';

const EVENTS_PATH = '/api/events';
const RETRY_DELAYS_MS = [500, 1_000, 2_000, 5_000, 10_000];
/** The longest the event stream is read without letting the page draw and take input. */
const READ_SLICE_MS = 8;
/** How much of a read is parsed between two looks at the clock. */
const FEED_CHARS = 32 * 1024;

/** Gives the browser a turn: scheduler.yield where there is one, else a timer. */
function yieldToPage(): Promise<void> {
  const scheduler = (globalThis as { scheduler?: { yield?: () => Promise<void> } }).scheduler;
  return scheduler?.yield ? scheduler.yield() : new Promise((resolve) => setTimeout(resolve, 0));
}

/** The browser host's transport: JSON over fetch, events over a streamed response. */
export function createHttpTransport(baseUrl: string, token: string): Transport {
  const listeners = new Set<(event: CoreEvent) => void>();
  const statusListeners = new Set<(status: ConnectionStatus) => void>();
  let status: ConnectionStatus = 'connecting';
  let stream: AbortController | null = null;
  let retryTimer: ReturnType<typeof setTimeout> | null = null;
  let closed = false;
  const authorization = { Authorization: `Bearer ${token}` };

  const setStatus = (next: ConnectionStatus) => {
    if (next === status) return;
    status = next;
    for (const listener of statusListeners) listener(status);
  };

  async function invoke(name: keyof typeof operations, params: unknown, options: { signal?: AbortSignal } = {}): Promise<unknown> {
    return send(name, planHttpRequest(operations[name], (params ?? {}) as Record<string, unknown>), options);
  }

  /** A body of tens of MB made as a Blob in a worker: fetch sends it without the page encoding a string that size. */
  function invokeWithBody(name: keyof typeof operations, body: Blob): Promise<unknown> {
    const { method, path } = operations[name].http;
    return send(name, { method, path, body });
  }

  async function send(name: keyof typeof operations, plan: { method: string; path: string; body?: string | Blob }, options: { signal?: AbortSignal } = {}): Promise<unknown> {
    let response: Response;
    try {
      response = await fetch(baseUrl + plan.path, {
        method: plan.method,
        headers: plan.body === undefined ? authorization : { ...authorization, 'Content-Type': 'application/json' },
        body: plan.body,
        signal: options.signal,
      });
    } catch (error) {
      if (options.signal?.aborted) throw new ToolbeltError('cancelled', 'Cancelled.');
      void error;
      throw new ToolbeltError('unavailable', 'Cannot reach the Toolbelt core. Is the host still running?');
    }
    if (response.status === 204) return undefined;
    const body: unknown = await response.json().catch(() => undefined);
    if (!response.ok) throw errorFromBody(body, `${name} failed with HTTP ${response.status}.`);
    return body;
  }

  async function connect(attempt: number): Promise<void> {
    if (closed) return;
    stream = new AbortController();
    try {
      const response = await fetch(baseUrl + EVENTS_PATH, { headers: authorization, signal: stream.signal });
      if (response.status === 401) {
        setStatus('unauthorized');
        return;
      }
      if (!response.ok || !response.body) throw new Error(`HTTP ${response.status}`);
      setStatus('connected');
      attempt = 0;
      const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
      const parse = createSseParser();
      // A fast model's answer arrives as a flood: reads of data already received resolve at once, one
      // after another in the same task, and one read can hold megabytes. It is handled in slices of a few
      // milliseconds, between which the page draws and takes input.
      let sliceStart = performance.now();
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        for (let offset = 0; offset < value.length; offset += FEED_CHARS) {
          for (const message of parse(value.slice(offset, offset + FEED_CHARS))) {
            const event = JSON.parse(message.data) as CoreEvent;
            for (const listener of listeners) listener(event);
          }
          if (performance.now() - sliceStart > READ_SLICE_MS) {
            await yieldToPage();
            sliceStart = performance.now();
          }
        }
      }
    } catch {
      // Falls through to reconnect; a closed transport stops below.
    }
    if (closed) return;
    setStatus('reconnecting');
    const delay = RETRY_DELAYS_MS[Math.min(attempt, RETRY_DELAYS_MS.length - 1)]!;
    retryTimer = setTimeout(() => void connect(attempt + 1), delay);
  }

  void connect(0);

  return {
    kind: 'http',
    invoke,
    invokeWithBody,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    onStatus(listener) {
      statusListeners.add(listener);
      listener(status);
      return () => statusListeners.delete(listener);
    },
    close() {
      closed = true;
      if (retryTimer) clearTimeout(retryTimer);
      stream?.abort();
    },
  };
}

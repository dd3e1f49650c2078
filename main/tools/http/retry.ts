import type { HttpImpl } from '../../../shared/schemas/http-impl.js';

type Retry = NonNullable<HttpImpl['retry']>;

export const DEFAULT_RETRY_ON_STATUS = [429, 500, 502, 503, 504];

export interface RetryPolicy {
  maxAttempts: number;
  /** Why another attempt is worth it after this outcome, or null. */
  reasonToRetry(outcome: { status?: number; networkError?: boolean; timedOut?: boolean }): string | null;
  /** How long to wait before attempt `next` (2, 3, …), given the server's Retry-After if any. */
  delayMs(next: number, retryAfterMs: number | null): number;
  maxDelayMs: number;
}

/**
 * Retries follow the tool's `retry` block. POST and PATCH are never repeated
 * unless the tool says they are safe to (`allowUnsafe`), since a request
 * whose answer was lost may still have taken effect.
 */
export function retryPolicy(impl: HttpImpl, random: () => number = Math.random): RetryPolicy {
  const retry: Retry | undefined = impl.retry;
  const unsafe = impl.method === 'POST' || impl.method === 'PATCH';
  const maxAttempts = !retry || (unsafe && !retry.allowUnsafe) ? 1 : retry.maxAttempts;
  const retryOnStatus = retry?.retryOnStatus ?? DEFAULT_RETRY_ON_STATUS;
  const retryOnNetwork = retry?.retryOnNetworkErrors ?? true;
  const initial = retry?.initialDelayMs ?? 250;
  const maxDelayMs = retry?.maxDelayMs ?? 10_000;
  return {
    maxAttempts,
    maxDelayMs,
    reasonToRetry({ status, networkError, timedOut }) {
      if (status !== undefined && retryOnStatus.includes(status)) return `HTTP ${status} is in retryOnStatus`;
      if (timedOut && retryOnNetwork) return 'the attempt timed out';
      if (networkError && retryOnNetwork) return 'a network error';
      return null;
    },
    delayMs(next, retryAfterMs) {
      const backoff = retry?.backoff ?? 'exponential';
      let delay = backoff === 'none' ? 0 : backoff === 'constant' ? initial : initial * 2 ** (next - 2);
      delay = Math.min(delay, maxDelayMs);
      // "Equal jitter": half fixed, half random, so retries spread without collapsing to zero.
      if (retry?.jitter && delay > 0) delay = delay / 2 + random() * (delay / 2);
      if (retryAfterMs !== null) delay = Math.max(delay, retryAfterMs);
      return Math.round(delay);
    },
  };
}

/** Retry-After as milliseconds: delta-seconds or an HTTP date; null when absent or unreadable. */
export function parseRetryAfter(header: string | null, now: number): number | null {
  if (!header) return null;
  const trimmed = header.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  const date = Date.parse(trimmed);
  return Number.isNaN(date) ? null : Math.max(0, date - now);
}

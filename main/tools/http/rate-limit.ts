import type { HttpImpl } from '../../../shared/schemas/http-impl.js';

type Limits = NonNullable<HttpImpl['rateLimit']>;

interface Bucket {
  capacity: number;
  tokens: number;
  refillPerMs: number;
  updatedAt: number;
}

/**
 * Per-tool, per-process limits as token buckets: one per configured window
 * (second, minute), each holding `burst` tokens (the window's count when no
 * burst is given). A call over the limit is refused at once; nothing waits.
 */
export class RateLimiter {
  private readonly buckets = new Map<string, { signature: string; buckets: Bucket[] }>();

  constructor(private readonly now: () => number) {}

  /** Takes a token from every bucket, or says how long until one is free. */
  take(key: string, limits: Limits): { ok: true } | { ok: false; retryInMs: number } {
    const signature = JSON.stringify(limits);
    let entry = this.buckets.get(key);
    if (!entry || entry.signature !== signature) {
      entry = { signature, buckets: this.create(limits) };
      this.buckets.set(key, entry);
    }
    const now = this.now();
    let wait = 0;
    for (const bucket of entry.buckets) {
      bucket.tokens = Math.min(bucket.capacity, bucket.tokens + (now - bucket.updatedAt) * bucket.refillPerMs);
      bucket.updatedAt = now;
      if (bucket.tokens < 1) wait = Math.max(wait, (1 - bucket.tokens) / bucket.refillPerMs);
    }
    if (wait > 0) return { ok: false, retryInMs: Math.ceil(wait) };
    for (const bucket of entry.buckets) bucket.tokens -= 1;
    return { ok: true };
  }

  private create(limits: Limits): Bucket[] {
    const now = this.now();
    const windows: [number | undefined, number][] = [
      [limits.maxCallsPerSecond, 1_000],
      [limits.maxCallsPerMinute, 60_000],
    ];
    return windows
      .filter((window): window is [number, number] => window[0] !== undefined)
      .map(([count, windowMs]) => {
        const capacity = limits.burst ?? count;
        return { capacity, tokens: capacity, refillPerMs: count / windowMs, updatedAt: now };
      });
  }
}

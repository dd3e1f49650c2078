import { describe, expect, it } from 'vitest';
import { isHostAllowed } from './allowed-hosts.js';
import { RateLimiter } from './rate-limit.js';
import { parseRetryAfter, retryPolicy } from './retry.js';

describe('allowed hosts', () => {
  const allowed = (url: string, list: string[]) => isHostAllowed(new URL(url), list);
  it('matches exact hosts on any port, host:port exactly, and wildcard subdomains only', () => {
    expect(allowed('https://api.example.com/x', ['api.example.com'])).toBe(true);
    expect(allowed('https://api.example.com:8443/x', ['api.example.com'])).toBe(true);
    expect(allowed('https://API.Example.com/x', ['api.example.com'])).toBe(true);
    expect(allowed('https://evil-api.example.com/x', ['api.example.com'])).toBe(false);
    expect(allowed('https://api.example.com.evil.net/x', ['api.example.com'])).toBe(false);
    expect(allowed('http://localhost:8080/', ['localhost:8080'])).toBe(true);
    expect(allowed('http://localhost:8081/', ['localhost:8080'])).toBe(false);
    expect(allowed('http://localhost/', ['localhost:80'])).toBe(true);
    expect(allowed('https://a.b.example.com/', ['*.example.com'])).toBe(true);
    expect(allowed('https://example.com/', ['*.example.com'])).toBe(false);
    expect(allowed('https://badexample.com/', ['*.example.com'])).toBe(false);
    expect(allowed('http://[::1]:9000/', ['[::1]:9000'])).toBe(true);
    expect(allowed('http://127.0.0.1:9000/', ['127.0.0.1'])).toBe(true);
    expect(allowed('http://user:pw@api.example.com@evil.net/', ['api.example.com'])).toBe(false);
  });
});

describe('retry policy', () => {
  const get = { method: 'GET' as const, urlTemplate: 'https://x.example/' };
  it('backs off exponentially up to maxDelayMs, with jitter inside [half, full]', () => {
    const policy = retryPolicy({ ...get, retry: { maxAttempts: 5, initialDelayMs: 100, maxDelayMs: 300 } });
    expect([2, 3, 4, 5].map((next) => policy.delayMs(next, null))).toEqual([100, 200, 300, 300]);
    const low = retryPolicy({ ...get, retry: { maxAttempts: 3, initialDelayMs: 100, jitter: true } }, () => 0);
    const high = retryPolicy({ ...get, retry: { maxAttempts: 3, initialDelayMs: 100, jitter: true } }, () => 1);
    expect([low.delayMs(3, null), high.delayMs(3, null)]).toEqual([100, 200]);
    expect(retryPolicy({ ...get, retry: { maxAttempts: 3, backoff: 'constant', initialDelayMs: 70 } }).delayMs(4, null)).toBe(70);
    expect(retryPolicy({ ...get, retry: { maxAttempts: 3, backoff: 'none' } }).delayMs(2, 500)).toBe(500);
  });

  it('gives POST and PATCH a single attempt unless allowUnsafe', () => {
    const retry = { maxAttempts: 4 };
    expect(retryPolicy({ ...get, method: 'POST', retry }).maxAttempts).toBe(1);
    expect(retryPolicy({ ...get, method: 'PATCH', retry }).maxAttempts).toBe(1);
    expect(retryPolicy({ ...get, method: 'PUT', retry }).maxAttempts).toBe(4);
    expect(retryPolicy({ ...get, method: 'POST', retry: { ...retry, allowUnsafe: true } }).maxAttempts).toBe(4);
    expect(retryPolicy(get).maxAttempts).toBe(1);
  });

  it('reads Retry-After as seconds or as a date', () => {
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(parseRetryAfter('3', now)).toBe(3_000);
    expect(parseRetryAfter('Thu, 01 Jan 2026 00:00:10 GMT', now)).toBe(10_000);
    expect(parseRetryAfter('soon', now)).toBeNull();
    expect(parseRetryAfter(null, now)).toBeNull();
  });
});

describe('rate limiter', () => {
  it('allows a burst, then one call per refill, per tool', () => {
    let now = 0;
    const limiter = new RateLimiter(() => now);
    const limits = { maxCallsPerSecond: 2, burst: 3 };
    expect([1, 2, 3, 4].map(() => limiter.take('a', limits).ok)).toEqual([true, true, true, false]);
    expect(limiter.take('b', limits).ok).toBe(true);
    const refused = limiter.take('a', limits);
    expect(refused).toEqual({ ok: false, retryInMs: 500 });
    now += 500;
    expect(limiter.take('a', limits).ok).toBe(true);
    expect(limiter.take('a', limits).ok).toBe(false);
  });

  it('applies every configured window', () => {
    let now = 0;
    const limiter = new RateLimiter(() => now);
    const limits = { maxCallsPerSecond: 10, maxCallsPerMinute: 3 };
    expect([1, 2, 3, 4].map(() => limiter.take('t', limits).ok)).toEqual([true, true, true, false]);
    now += 20_000;
    expect(limiter.take('t', limits).ok).toBe(true);
  });
});

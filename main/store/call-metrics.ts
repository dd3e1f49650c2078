/**
 * Calls, failures and times of one tool, hour by hour over the last week: what its page says about the last day and
 * week. Bounded by design: at most a week of hours per tool, each a fixed set of time buckets (a call's time is kept
 * as the bucket it fell in, so a percentile is read to within a bucket's width, about 19%).
 */

export const HOURS_KEPT = 7 * 24;
const HOUR_MS = 3_600_000;

/** Upper bounds of the time buckets, in ms: 0.1 ms up to an hour, each 1.2× the last. */
const BOUNDS: number[] = (() => {
  const bounds: number[] = [];
  for (let bound = 0.1; bound < HOUR_MS; bound *= 1.2) bounds.push(bound);
  bounds.push(Number.POSITIVE_INFINITY);
  return bounds;
})();

/** One hour of calls: `h` hours since the epoch, `n` calls, `f` failures, `t` counts by time bucket (index → count). */
export interface CallHour {
  h: number;
  n: number;
  f: number;
  t: Record<string, number>;
}

export interface CallFigures {
  calls: number;
  failures: number;
  /** Medians and 95th percentiles of the calls' times, in ms (absent without calls). */
  p50Ms?: number;
  p95Ms?: number;
}

function bucketOf(durationMs: number): number {
  let low = 0;
  let high = BOUNDS.length - 1;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (durationMs <= BOUNDS[middle]!) high = middle;
    else low = middle + 1;
  }
  return low;
}

/** Counts a call into its hour; hours older than a week are dropped. Returns the hours to keep. */
export function addCall(hours: CallHour[], at: Date, ok: boolean, durationMs: number): CallHour[] {
  const h = Math.floor(at.getTime() / HOUR_MS);
  // Nearly always the last hour; a clock set back finds an earlier one, or makes it in its place.
  let hour = hours.at(-1)?.h === h ? hours.at(-1) : hours.find((kept) => kept.h === h);
  if (!hour) {
    hour = { h, n: 0, f: 0, t: {} };
    const sorted = [...hours, hour].sort((a, b) => a.h - b.h);
    const newest = sorted.at(-1)!.h;
    hours = sorted.filter((kept) => kept.h > newest - HOURS_KEPT);
  }
  hour.n += 1;
  if (!ok) hour.f += 1;
  const bucket = String(bucketOf(Math.max(0, durationMs)));
  hour.t[bucket] = (hour.t[bucket] ?? 0) + 1;
  return hours;
}

/** The figures of the last `windowHours` hours up to now. */
export function figuresOf(hours: readonly CallHour[], now: Date, windowHours: number): CallFigures {
  const h = Math.floor(now.getTime() / HOUR_MS);
  const inWindow = hours.filter((hour) => hour.h > h - windowHours && hour.h <= h);
  const counts = new Map<number, number>();
  let calls = 0;
  let failures = 0;
  for (const hour of inWindow) {
    calls += hour.n;
    failures += hour.f;
    for (const [bucket, count] of Object.entries(hour.t)) counts.set(Number(bucket), (counts.get(Number(bucket)) ?? 0) + count);
  }
  if (calls === 0) return { calls, failures };
  const ordered = [...counts.entries()].sort(([a], [b]) => a - b);
  const percentile = (p: number) => {
    const rank = Math.ceil(p * calls);
    let seen = 0;
    for (const [bucket, count] of ordered) {
      seen += count;
      // The bucket's middle (geometric) as its time; the last, open one at its lower bound.
      if (seen >= rank) return bucket === 0 ? BOUNDS[0]! : Number.isFinite(BOUNDS[bucket]!) ? Math.sqrt(BOUNDS[bucket - 1]! * BOUNDS[bucket]!) : BOUNDS[bucket - 1]!;
    }
    return BOUNDS[BOUNDS.length - 2]!;
  };
  return { calls, failures, p50Ms: round(percentile(0.5)), p95Ms: round(percentile(0.95)) };
}

const round = (ms: number) => (ms < 10 ? Math.round(ms * 10) / 10 : Math.round(ms));

/** Hours read from a file, kept only where each is what `addCall` writes (a hand-edited or damaged file gives none). */
export function readHours(value: unknown): CallHour[] {
  if (!Array.isArray(value)) return [];
  const hours = value.slice(-HOURS_KEPT).filter((hour): hour is CallHour => {
    if (!hour || typeof hour !== 'object') return false;
    const { h, n, f, t } = hour as Record<string, unknown>;
    return Number.isSafeInteger(h) && Number.isSafeInteger(n) && Number.isSafeInteger(f) && (n as number) >= 0 && (f as number) >= 0 && !!t && typeof t === 'object' && !Array.isArray(t) && Object.keys(t).length <= BOUNDS.length && Object.entries(t).every(([bucket, count]) => /^\d{1,3}$/.test(bucket) && Number(bucket) < BOUNDS.length && Number.isSafeInteger(count) && (count as number) >= 0);
  });
  return hours.sort((a, b) => a.h - b.h);
}

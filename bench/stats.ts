import { performance } from 'node:perf_hooks';
import { reported } from './figures-file.js';

/**
 * `--smoke` (npm test): every section runs once at a small size, to show that it still runs and prints its figures.
 * Read from the command line once, before any section's sizes are set; a smoke run's figures are not judged.
 */
export const SMOKE = process.argv.includes('--smoke');

/** A count of the full bench, or in a smoke run a fiftieth of it (at least `least`: a median needs a few). */
export function sized(full: number, least = 1): number {
  return SMOKE ? Math.max(least, Math.ceil(full / 50)) : full;
}

export function percentile(samples: number[], p: number): number {
  const sorted = [...samples].sort((a, b) => a - b);
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[index]!;
}

export async function timeEach(count: number, run: (index: number) => unknown): Promise<number[]> {
  const samples: number[] = [];
  for (let index = 0; index < count; index++) {
    const started = performance.now();
    await run(index);
    samples.push(performance.now() - started);
  }
  return samples;
}

export interface Figure {
  section: string;
  name: string;
  /** What we measured, in ms. */
  ours: number;
  /** The limit it is compared with, measured in the same run, in ms. */
  limit: number;
  limitName: string;
  goalRatio?: number;
  goalAbsoluteMs?: number;
}

function formatMs(ms: number): string {
  return ms >= 100 ? `${ms.toFixed(0)} ms` : ms >= 1 ? `${ms.toFixed(2)} ms` : ms >= 0.01 ? `${(ms * 1000).toFixed(0)} µs` : `${(ms * 1000).toFixed(2)} µs`;
}

/** One line per figure: the ratio first, the absolute numbers beside it, then the goal and its verdict. */
export function report(figure: Figure): boolean {
  reported.push(figure);
  const ratio = figure.ours / figure.limit;
  const ratioOk = figure.goalRatio === undefined || ratio <= figure.goalRatio;
  const absoluteOk = figure.goalAbsoluteMs === undefined || figure.ours <= figure.goalAbsoluteMs;
  const goals = [
    figure.goalRatio !== undefined ? `≤ ${figure.goalRatio}×` : null,
    figure.goalAbsoluteMs !== undefined ? `< ${figure.goalAbsoluteMs} ms` : null,
  ].filter(Boolean);
  const verdict = SMOKE ? 'smoke run: not judged' : goals.length ? `goal ${goals.join(' and ')}: ${ratioOk && absoluteOk ? 'met' : 'MISSED'}` : '';
  console.log(
    `${figure.section.padEnd(7)} ${figure.name.padEnd(44)} ${ratio.toFixed(2).padStart(6)}×   ${formatMs(figure.ours).padStart(10)} vs ${formatMs(figure.limit).padStart(10)} ${figure.limitName.padEnd(34)} ${verdict}`,
  );
  return SMOKE || (ratioOk && absoluteOk);
}

/** How long a warm-up lasts at least, whatever its count: V8 compiles a hot function on a background thread (tens of ms for a large one), and a path timed before that ends is timed half compiled. */
const WARM_UP_MS = 400;

/**
 * Runs each of `runs` in turn, `rounds` times and for `WARM_UP_MS` at
 * least, so the JIT has compiled them, as in an app that has run a while.
 * A count alone did not: 500 local calls take ~25 ms, and the local call's
 * p50 then fell wherever V8's compile of the invoke path happened to end
 * (25 to 48 µs from one run to the next).
 */
async function warmUp(rounds: number, ...runs: (() => unknown)[]): Promise<void> {
  const started = performance.now();
  const leastMs = SMOKE ? 0 : WARM_UP_MS;
  for (let i = 0; i < rounds || performance.now() - started < leastMs; i++) for (const run of runs) await run();
}

/**
 * Times two calls in turns after warming both (`warmUp`). Turns alternate which goes first,
 * so neither always runs right after the other (its garbage, the scheduler).
 */
export async function timeInTurns(rounds: number, warmUpRounds: number, ours: () => Promise<unknown>, limit: () => Promise<unknown>): Promise<{ ours: number[]; limit: number[] }> {
  await warmUp(warmUpRounds, ours, limit);
  const samples = { ours: [] as number[], limit: [] as number[] };
  for (let i = 0; i < rounds; i++) {
    const pair = [() => timeEach(1, ours).then((sample) => samples.ours.push(...sample)), () => timeEach(1, limit).then((sample) => samples.limit.push(...sample))];
    for (const turn of i % 2 ? pair.reverse() : pair) await turn();
  }
  return samples;
}

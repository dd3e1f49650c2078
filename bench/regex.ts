// Patterns people and servers supply run on re2js (linear time) instead of
// V8's backtracking engine. This prices that choice on ordinary patterns,
// and shows what it buys on a hostile one.
import { performance } from 'node:perf_hooks';
import { createAjv } from '../main/common/validation.js';
import { compileLinear } from '../main/common/linear-regex.js';
import { percentile, report, type Figure, sized } from './stats.js';

const ORDINARY: { name: string; pattern: string; inputs: string[] }[] = [
  { name: 'slug ^[a-z0-9-]{1,64}$', pattern: '^[a-z0-9-]{1,64}$', inputs: ['city-weather', 'a-very-long-slug-with-many-parts-42', 'Not A Slug!'] },
  { name: 'ISO date', pattern: '^\\d{4}-\\d{2}-\\d{2}$', inputs: ['2026-11-23', '23/11/2026'] },
  { name: 'e-mail-ish', pattern: '^[^@\\s]+@[^@\\s]+\\.[A-Za-z]{2,}$', inputs: ['ada@example.com', 'not an address'] },
  { name: 'word in 2 kB of text', pattern: '\\bforecast\\b', inputs: [`${'lorem ipsum dolor sit amet '.repeat(75)}forecast`] },
];

function perCall(run: () => unknown, rounds: number): number {
  for (let i = 0; i < rounds / 10; i++) run();
  const samples: number[] = [];
  for (let batch = 0; batch < 50; batch++) {
    const started = performance.now();
    for (let i = 0; i < rounds / 50; i++) run();
    samples.push((performance.now() - started) / (rounds / 50));
  }
  return percentile(samples, 50);
}

export async function benchRegex(): Promise<boolean> {
  const figures: Figure[] = [];
  for (const { name, pattern, inputs } of ORDINARY) {
    const native = new RegExp(pattern, 'u');
    const linear = compileLinear(pattern);
    const nativeMs = perCall(() => inputs.map((input) => native.test(input)), sized(20_000, 50));
    const linearMs = perCall(() => inputs.map((input) => linear.test(input)), sized(20_000, 50));
    figures.push({ section: 'regex', name: `test: ${name}`, ours: linearMs, limit: nativeMs, limitName: 'V8 RegExp on the same inputs' });
  }

  // What a tool call pays: argument validation of a schema with two patterns.
  const schema = { type: 'object', properties: { city: { type: 'string', pattern: '^[\\p{L} .-]{2,80}$' }, day: { type: 'string', pattern: '^\\d{4}-\\d{2}-\\d{2}$' } } };
  const args = { city: 'Zürich', day: '2026-11-23' };
  const withLinear = createAjv({ strict: false, peoplesSchemas: true }).compile(schema);
  const withNative = createAjv({ strict: false }).compile(schema);
  figures.push({
    section: 'regex',
    name: 'argSchema check with 2 patterns',
    ours: perCall(() => withLinear(args), sized(20_000, 50)),
    limit: perCall(() => withNative(args), sized(20_000, 50)),
    limitName: 'the same ajv check on V8 RegExp',
  });

  // The reason for all this: ^(a+)+$ on "aaa…!" doubles per character on V8.
  const hostile = `${'a'.repeat(20)}!`;
  const started = performance.now();
  new RegExp('^(a+)+$').test(hostile);
  const nativeHostileMs = performance.now() - started;
  const linearHostileMs = perCall(() => compileLinear('^(a+)+$').test(hostile), sized(200, 50));
  figures.push({ section: 'regex', name: '^(a+)+$ on 20 "a" and "!"', ours: linearHostileMs, limit: nativeHostileMs, limitName: 'V8 RegExp (doubles per extra "a")' });

  const met = figures.map(report);
  return met.every(Boolean);
}

import { afterEach, describe, expect, it } from 'vitest';
import { silentLogger } from '../log.js';
import { DEFAULT_SCRIPT_LIMITS, type ScriptLimits } from './sandbox-protocol.js';
import { ScriptPool, type ScriptServices } from './script-pool.js';
import { sandboxWorkerUrl } from './worker-location.js';

const pools: ScriptPool[] = [];
afterEach(async () => {
  await Promise.all(pools.splice(0).map((pool) => pool.close()));
});

function pool(size = 2) {
  const made = new ScriptPool({ workerUrl: sandboxWorkerUrl(new URL('./worker-location.ts', import.meta.url).href), size, log: silentLogger });
  pools.push(made);
  return made;
}

const noFetch: ScriptServices = { fetch: () => Promise.reject(new Error('no network here')), call: () => Promise.resolve({ ok: false, error: { code: 'unknown_tool', message: 'no tools here' } }) };
const run = (subject: ScriptPool, code: string, options: { parameters?: string[]; args?: Record<string, unknown>; limits?: Partial<ScriptLimits>; secrets?: Record<string, string>; services?: ScriptServices; measureMemory?: boolean } = {}) =>
  subject.run(
    {
      code,
      parameters: options.parameters ?? [],
      args: options.args ?? {},
      secrets: options.secrets ?? {},
      limits: { ...DEFAULT_SCRIPT_LIMITS, ...options.limits },
      ...(options.measureMemory ? { measureMemory: true } : {}),
    },
    options.services ?? noFetch,
    new AbortController().signal,
  );

describe('the script sandbox (QuickJS in worker threads)', () => {
  it('calls the default export with the arguments by parameter name, async or not, and keeps its console', async () => {
    const subject = pool();
    const result = await run(subject, 'export default async function add(a, b = 10) { console.log("adding", a, { b }); return { sum: a + b }; }', { parameters: ['a', 'b'], args: { a: 2 }, measureMemory: true });
    expect(result.outcome).toEqual({ ok: true, json: '{"sum":12}' });
    expect(result.logs).toEqual([{ level: 'log', text: 'adding 2 {"b":10}' }]);
    expect(result.memoryBytes).toBeGreaterThan(0);
    // Not asked (a model's call): not measured.
    expect((await run(subject, 'export default function () { return 1; }')).memoryBytes).toBe(0);
  });

  it('warms up ahead of the first call (a worker started, an empty script run through it), and a close during that is no error', async () => {
    const warmed = pool(1);
    await warmed.warm();
    const result = await run(warmed, 'export default function () { return 7; }');
    expect(result.outcome).toEqual({ ok: true, json: '7' });
    const closing = pool(1);
    const warming = closing.warm();
    await closing.close();
    await expect(warming).resolves.toBeUndefined();
  });

  it('fetches through the host, and reads only the secrets handed to it', async () => {
    const subject = pool();
    const asked: unknown[] = [];
    const services: ScriptServices = { ...noFetch, fetch: (request) => (asked.push(request), Promise.resolve({ status: 200, headers: { 'content-type': 'application/json' }, text: '{"temp":21}' })) };
    const code = `export default async function weather(city) {
      const response = await fetch('https://api.example.com/w?q=' + city, { headers: { authorization: 'Bearer ' + secret('KEY') } });
      return { ok: response.ok, temp: (await response.json()).temp };
    }`;
    const result = await run(subject, code, { parameters: ['city'], args: { city: 'Oslo' }, secrets: { KEY: 'k-123' }, services });
    expect(result.outcome).toEqual({ ok: true, json: '{"ok":true,"temp":21}' });
    expect(asked).toEqual([{ url: 'https://api.example.com/w?q=Oslo', method: 'GET', headers: { authorization: 'Bearer k-123' } }]);
    const other = await run(subject, 'export default function () { return secret("OTHER"); }');
    expect(other.outcome).toMatchObject({ ok: false, code: 'script_error', message: expect.stringContaining('The secret "OTHER" is not one this tool declares') as unknown });
  });

  it('ends a loop, a memory bomb, deep recursion, a promise that never settles and a throw as errors with codes and lines', async () => {
    const subject = pool();
    expect((await run(subject, 'export default function () { while (true) {} }', { limits: { timeoutMs: 300 } })).outcome).toMatchObject({ ok: false, code: 'script_timeout' });
    // The memory limit, not the clock, must end these, however busy the machine is.
    expect((await run(subject, 'export default function () { let s = "x"; while (true) s += s; }', { limits: { timeoutMs: 30_000 } })).outcome).toMatchObject({ ok: false, code: 'script_memory' });
    expect((await run(subject, 'export default function () { const a = []; while (true) a.push(new Uint8Array(1 << 20)); }', { limits: { memoryBytes: 8 * 1024 * 1024, timeoutMs: 30_000 } })).outcome).toMatchObject({ ok: false, code: 'script_memory' });
    expect((await run(subject, 'export default function f(n = 0) { return f(n + 1); }')).outcome).toMatchObject({ ok: false, code: 'script_error', message: expect.stringContaining('stack') as unknown });
    expect((await run(subject, 'export default function () { return new Promise(() => {}); }')).outcome).toMatchObject({ ok: false, code: 'script_error', message: expect.stringContaining('never settles') as unknown });
    expect((await run(subject, 'const x = 1;\n\nexport default function () {\n  throw new TypeError("no such city");\n}')).outcome).toEqual({ ok: false, code: 'script_error', message: 'TypeError: no such city', line: 4 });
    expect((await run(subject, 'export default function () { return "x".repeat(2000); }', { limits: { outputChars: 1000 } })).outcome).toMatchObject({ ok: false, code: 'script_output_too_large' });
    // After all that, the same pool still runs scripts.
    expect((await run(subject, 'export default () => 42')).outcome).toEqual({ ok: true, json: '42' });
    // Eight runs one after another, two of them filling a runtime's memory: a loaded machine takes more than one test's 20 s.
  }, 60_000);

  it('has nothing of Node or the host: no require, process, import, or a way out through Function', async () => {
    const subject = pool();
    const probe = `export default function () {
      return [typeof require, typeof process, typeof globalThis.__hostFetch, typeof Function('return this')().process, typeof WebAssembly, typeof setTimeout];
    }`;
    expect((await run(subject, probe)).outcome).toEqual({ ok: true, json: '["undefined","undefined","undefined","undefined","undefined","undefined"]' });
    expect((await run(subject, 'import fs from "fs"; export default () => fs')).outcome).toMatchObject({ ok: false, code: 'script_error' });
    // Arguments cross as JSON: polluting their prototype touches nothing outside.
    expect((await run(subject, 'export default function (o) { o.__proto__.polluted = 1; return ({}).polluted; }', { parameters: ['o'], args: { o: {} } })).outcome).toEqual({ ok: true, json: '1' });
    expect(({} as { polluted?: unknown }).polluted).toBeUndefined();
    // Each call starts afresh (its runtime made between calls, never used before): nothing one call left reaches the next,
    // on a pool of one worker, so both run there; nor its secrets, logs or console.
    const single = pool(1);
    const leave = 'export default function () { globalThis.left = "mine"; Object.prototype.tainted = 1; globalThis.console = { log: () => "hijacked" }; return secret("KEY"); }';
    expect((await run(single, leave, { secrets: { KEY: 'first-call-secret' } })).outcome).toEqual({ ok: true, json: '"first-call-secret"' });
    const look = `export default function () {
      let key = null; try { key = secret("KEY"); } catch (error) { key = error.name; }
      console.log("still mine");
      return [typeof globalThis.left, ({}).tainted === undefined, key];
    }`;
    const next = await run(single, look);
    expect(next.outcome).toEqual({ ok: true, json: '["undefined",true,"SecretError"]' });
    expect(next.logs).toEqual([{ level: 'log', text: 'still mine' }]);
  });

  it('runs calls side by side up to its size, and a call cancelled while it runs ends alone', async () => {
    const subject = pool(2);
    const slow = run(subject, 'export default function () { const end = Date.now() + 400; while (Date.now() < end) {} return "slow"; }');
    const quick = run(subject, 'export default () => "quick"');
    expect((await quick).outcome).toEqual({ ok: true, json: '"quick"' });
    expect((await slow).outcome).toEqual({ ok: true, json: '"slow"' });
    const controller = new AbortController();
    const cancelled = subject.run({ code: 'export default function () { while (true) {} }', parameters: [], args: {}, secrets: {}, limits: DEFAULT_SCRIPT_LIMITS }, noFetch, controller.signal);
    setTimeout(() => controller.abort(new Error('stopped')), 100);
    await expect(cancelled).rejects.toThrow('stopped');
    expect((await run(subject, 'export default () => "after"')).outcome).toEqual({ ok: true, json: '"after"' });
  });

  it('answers each call as its worker answers and gives the worker the next call once it has freed the last: back to back on one worker', async () => {
    const single = pool(1);
    const answers = await Promise.all(Array.from({ length: 20 }, (_, index) => run(single, `export default () => ${index}`)));
    expect(answers.map((each) => each.outcome)).toEqual(Array.from({ length: 20 }, (_, index) => ({ ok: true, json: String(index) })));
    const controller = new AbortController();
    const kept = await single.run({ code: 'export default () => "kept"', parameters: [], args: {}, secrets: {}, limits: DEFAULT_SCRIPT_LIMITS }, noFetch, controller.signal);
    // Cancelled once answered: the answer stands, and the worker goes on.
    controller.abort(new Error('too late'));
    expect(kept.outcome).toEqual({ ok: true, json: '"kept"' });
    expect((await run(single, 'export default () => "next"')).outcome).toEqual({ ok: true, json: '"next"' });
  });
});

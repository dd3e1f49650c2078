import v8 from 'node:v8';
import vm from 'node:vm';
import { describe, expect, it } from 'vitest';
import { planHttpRequest } from '../../renderer/api/http-request.js';
import { operations } from '../../shared/operations/index.js';
import { newID } from '../../testing/data/fixtures.js';
import { startInProcessHost } from '../../testing/harness/in-process-host.js';
import { json, startLoopbackServer } from '../../testing/harness/loopback-server.js';
import { hostileValues, sample, seededRandom, type Sampler } from '../../testing/data/schema-sample.js';

/** Requests per operation: one sampled from its schema, the rest that one with a hostile value in one place. */
const PER_OPERATION = 30;
const REQUEST_LIMIT_MS = 20_000;
const SEED = Number(process.env.FUZZ_SEED ?? 20261125);

/** The fuzz must not reach past this machine: provider SDKs' default addresses included. */
const loopbackOnly: typeof fetch = (input, init) => {
  const url = new URL(input instanceof Request ? input.url : String(input));
  if (url.hostname !== '127.0.0.1' && url.hostname !== 'localhost') return Promise.reject(new TypeError(`fetch to ${url.host} refused: the fuzz stays on loopback`));
  return fetch(input, init);
};

function mutate(base: Record<string, unknown>, sampler: Sampler, hostile: unknown[]): Record<string, unknown> {
  const params = { ...base };
  const keys = Object.keys(params);
  const roll = sampler.random();
  if (roll < 0.1 && keys.length) delete params[keys[Math.floor(sampler.random() * keys.length)]!];
  else if (roll < 0.2 || keys.length === 0) params[`unknown${Math.floor(sampler.random() * 10)}`] = hostile[Math.floor(sampler.random() * hostile.length)];
  else params[keys[Math.floor(sampler.random() * keys.length)]!] = hostile[Math.floor(sampler.random() * hostile.length)];
  return params;
}

const mb = (bytes: number) => Math.round(bytes / 1024 / 1024);

/** What JavaScript holds: the heap and the buffers outside it (RSS keeps pages the collector has freed). */
const held = () => {
  const usage = process.memoryUsage();
  return usage.heapUsed + usage.external;
};

/** A full collection, so that what is measured is what is still held. */
function collectGarbage(): void {
  v8.setFlagsFromString('--expose-gc');
  (vm.runInNewContext('gc') as () => void)();
}

describe('every operation, fuzzed over HTTP', () => {
  it('answers every request with a status that is not 500, none hangs, and memory stays bounded', { timeout: 600_000 }, async () => {
    const api = await startLoopbackServer({ '/forecast': (_request, response) => json(response, 200, { sky: 'clear' }) });
    const host = await startInProcessHost({ core: { fetch: loopbackOnly, providerRetries: 0, mcpConnectTimeoutMs: 2_000 } });
    const call = (name: keyof typeof operations, params: Record<string, unknown>) => host.core.dispatcher.call(name, params, { transport: 'internal' });
    // Data for the requests to find: a bundle with a tool, a scripted provider, a chat, a secret.
    const bundleID = newID();
    await call('settings.patch', { allowedHosts: [api.host] });
    await call('bundles.put', { bundleID, slug: 'fuzz', displayName: 'Fuzz' });
    await call('tools.put', { bundleID, toolSlug: 'forecast', version: 'v1', tool: { displayName: 'Forecast', type: 'http', argSchema: { type: 'object', properties: { city: { type: 'string' } } }, impl: { method: 'GET', urlTemplate: `${api.base}/forecast` } } });
    await call('providers.put', { id: 'script', kind: 'scripted', displayName: 'Script', script: [{ text: 'ok' }] });
    await call('secrets.put', { name: 'SEED_SECRET', value: 'seed' });
    const named: Record<string, unknown> = { bundleID, toolSlug: 'forecast', version: 'v1', providerId: 'script', name: 'SEED_SECRET' };
    // Before each operation the seeded data is there again (an earlier one may have deleted it), so requests reach deep.
    const reseed = async () => {
      await call('bundles.put', { bundleID, slug: 'fuzz', displayName: 'Fuzz', isEnabled: true });
      await call('tools.put', { bundleID, toolSlug: 'forecast', version: 'v1', tool: { displayName: 'Forecast', type: 'http', argSchema: { type: 'object', properties: { city: { type: 'string' } } }, impl: { method: 'GET', urlTemplate: `${api.base}/forecast` } } }).catch(() => undefined);
      await call('providers.put', { id: 'script', kind: 'scripted', displayName: 'Script', script: [{ text: 'ok' }] });
      named.chatId = ((await call('chats.create', { providerId: 'script', model: 'script' })) as { id: string }).id;
    };

    const random = seededRandom(SEED);
    const sampler: Sampler = {
      random,
      named,
      strings: [bundleID, 'forecast', 'v1', 'script', 'SEED_SECRET', newID(), 'a', 'abc', 'x-1', 'NAME_1', 'GET', 'scripted', `${api.base}/forecast`, 'http://127.0.0.1:9/x', '127.0.0.1:9', 'text', '2026-01-01T00:00:00.000Z'],
    };
    const hostile = hostileValues();
    const statuses = new Map<number, number>();
    const internal: string[] = [];
    const hangs: string[] = [];
    let sent = 0;
    // Memory is judged by what the run leaves held once garbage is collected (what would grow without bound), and by
    // its peak while it runs (garbage collection picks its moments, so the peak has room).
    collectGarbage();
    const startRss = process.memoryUsage().rss;
    const startHeld = held();
    let peakRss = startRss;
    const covered = new Map<string, number>();

    for (const name of Object.keys(operations) as (keyof typeof operations)[]) {
      const definition = operations[name];
      await reseed();
      const base = sample(definition.params, sampler) as Record<string, unknown>;
      const variants = [base, ...Array.from({ length: PER_OPERATION - 1 }, () => mutate(base, sampler, hostile))];
      for (const params of variants) {
        let plan;
        try {
          plan = planHttpRequest(definition, params);
        } catch {
          continue; // A path parameter left out: no such request can be made.
        }
        sent++;
        covered.set(name, (covered.get(name) ?? 0) + 1);
        try {
          const response = await fetch(host.base + plan.path, {
            method: plan.method,
            headers: { ...host.authorization, ...(plan.body === undefined ? {} : { 'Content-Type': 'application/json' }) },
            body: plan.body,
            signal: AbortSignal.timeout(REQUEST_LIMIT_MS),
          });
          const text = await response.text();
          statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
          if (response.status === 500) internal.push(`${name} ${plan.method} ${plan.path.slice(0, 120)} ${(plan.body ?? '').slice(0, 200)} → ${text.slice(0, 200)}`);
        } catch (error) {
          hangs.push(`${name}: ${String(error).slice(0, 200)}`);
        }
        peakRss = Math.max(peakRss, process.memoryUsage().rss);
      }
    }
    // Requests no client of the table would make: broken JSON, another content type, broken escapes, long segments.
    for (const name of Object.keys(operations) as (keyof typeof operations)[]) {
      const { method, path } = operations[name].http;
      const filled = path.replace(/:[A-Za-z]+/g, () => 'x');
      const raw: { path: string; body?: string; type?: string }[] = [
        { path: path.replace(/:[A-Za-z]+/g, () => '%E0%A4%A'), body: '{}', type: 'application/json' },
        { path: path.replace(/:[A-Za-z]+/g, () => 'y'.repeat(8_000)), body: '{}', type: 'application/json' },
        { path: `${filled}?${'q=1&'.repeat(2_000)}` },
        { path: filled, body: '{"a":', type: 'application/json' },
        { path: filled, body: '\uD800', type: 'application/json' },
        { path: filled, body: 'a=1', type: 'application/x-www-form-urlencoded' },
        { path: filled, body: `${'['.repeat(100_000)}${']'.repeat(100_000)}`, type: 'application/json' },
      ];
      for (const request of raw) {
        sent++;
        try {
          const response = await fetch(host.base + request.path, {
            method,
            headers: { ...host.authorization, ...(request.type ? { 'Content-Type': request.type } : {}) },
            ...(request.body !== undefined && method !== 'GET' && method !== 'DELETE' ? { body: request.body } : {}),
            signal: AbortSignal.timeout(REQUEST_LIMIT_MS),
          });
          const text = await response.text();
          statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
          if (response.status === 500) internal.push(`${name} raw ${method} ${request.path.slice(0, 120)} → ${text.slice(0, 200)}`);
        } catch (error) {
          hangs.push(`${name} raw: ${String(error).slice(0, 200)}`);
        }
        peakRss = Math.max(peakRss, process.memoryUsage().rss);
      }
    }
    const health = await fetch(`${host.base}/api/app/health`, { headers: host.authorization });
    collectGarbage();
    const endHeld = held();
    await host.stop();
    console.log(
      `fuzz (seed ${SEED}): ${sent} requests over ${covered.size} operations; statuses ${JSON.stringify(Object.fromEntries([...statuses].sort(([a], [b]) => a - b)))}; ` +
        `500s ${internal.length}; hangs ${hangs.length}; RSS ${mb(startRss)} MB at the start, peak ${mb(peakRss)} MB; held (heap and buffers) ${mb(startHeld)} MB at the start, ${mb(endHeld)} MB at the end`,
    );
    expect(internal).toEqual([]);
    expect(hangs).toEqual([]);
    expect(health.status).toBe(200);
    // What the run leaves held, and the peak of the core and the test runner together (the runner alone is about 180 MB).
    expect(endHeld - startHeld).toBeLessThan(64 * 1024 * 1024);
    expect(peakRss).toBeLessThan(640 * 1024 * 1024);
    // Every operation of the table was sent requests: a new operation is fuzzed without anyone listing it here.
    expect(Object.keys(operations).filter((name) => (covered.get(name) ?? 0) < PER_OPERATION / 2)).toEqual([]);
  });
});

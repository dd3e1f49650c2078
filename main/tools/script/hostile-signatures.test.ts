import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { aliasChain } from '../../../testing/data/alias-chain.js';
import { newID } from '../../../testing/data/fixtures.js';
import { startInProcessHost, type InProcessHost } from '../../../testing/harness/in-process-host.js';
import { startTestCore } from '../../../testing/harness/test-core.js';

/**
 * Asks the host for its health, one request after another, while `work`
 * runs: the slowest answer says whether anything held the host's thread.
 */
async function slowestHealthWhile(host: InProcessHost, work: () => Promise<void>): Promise<{ slowestMs: number; probes: number }> {
  let done = false;
  let slowestMs = 0;
  let probes = 0;
  const probing = (async () => {
    while (!done) {
      const started = performance.now();
      const answer = await host.request('GET', '/api/app/health');
      expect(answer.status).toBe(200);
      slowestMs = Math.max(slowestMs, performance.now() - started);
      probes += 1;
    }
  })();
  try {
    await work();
  } finally {
    done = true;
    await probing;
  }
  return { slowestMs, probes };
}

/**
 * The slowest health answer while the hostile work runs, in the best of up
 * to three passes (each on fresh names and text, so nothing is served from a
 * cache): a script that holds the host's thread holds it in every pass, while
 * a machine busy with other tests (two cores, test files side by side) can
 * delay one answer of a pass, and did in two passes running once.
 */
async function slowestHealthInBetterPass(host: InProcessHost, limitMs: number, work: (pass: number) => Promise<void>): Promise<{ slowestMs: number; probes: number }> {
  let best = await slowestHealthWhile(host, () => work(1));
  for (let pass = 2; pass <= 3 && best.slowestMs >= limitMs; pass++) {
    const next = await slowestHealthWhile(host, () => work(pass));
    if (next.slowestMs < best.slowestMs) best = next;
  }
  return best;
}

const HEALTH_WITHIN_MS = 100;

/** The alias chain with a hand-written schema, as a ZIP someone else made would bring it. */
const ZIPPED_TOOL = {
  displayName: 'DAG',
  type: 'script' as const,
  argSchema: { type: 'object', properties: { x: { type: 'object' } } },
  impl: { language: 'typescript' as const, source: aliasChain(22, 'x?: T0') },
};

/**
 * The host with a plain script read, saved, tried and called once: what any
 * first use costs (the store's validators compiled, the sandbox's worker
 * started) is paid before the hostile script comes, so what is measured is
 * what that script costs the host.
 */
async function hostWithScripts() {
  const host = await startInProcessHost();
  onTestFinished(() => host.stop());
  const call = (name: Parameters<typeof host.core.dispatcher.call>[0], params: unknown) => host.core.dispatcher.call(name, params, { transport: 'internal' }) as Promise<Record<string, unknown>>;
  const bundleID = newID();
  await call('bundles.put', { bundleID, slug: 'scripts', displayName: 'Scripts' });
  const plain = { displayName: 'Plain', type: 'script', argSchema: {}, impl: { language: 'typescript', source: 'export default function plain(n?: number) { return 1; }' } };
  await call('tools.readScript', { language: 'typescript', source: plain.impl.source });
  await call('tools.validate', { bundleID, toolSlug: 'plain', version: 'v1', tool: plain });
  await call('tools.put', { bundleID, toolSlug: 'plain', version: 'v1', tool: plain });
  await call('tools.try', { bundleID, tool: { ...plain, argSchema: { type: 'object', properties: { n: { type: 'number' } } } }, args: {} });
  await call('tools.invoke', { bundleID, toolSlug: 'plain', version: 'v1', args: {} });
  // What the same calls cost the host with a plain script, measured the same way: on a loaded machine (two cores,
  // test files side by side) every answer is slower, the plain script's too. A hostile script that held the thread
  // (the bug: seconds, a 257 MB tool.json) is far past both.
  const plainRun = await slowestHealthWhile(host, async () => {
    for (const version of ['b1', 'b2']) {
      const tool = { ...plain, impl: { ...plain.impl, source: `// ${version}\n${plain.impl.source}` } };
      await call('tools.readScript', { language: 'typescript', source: tool.impl.source });
      await call('tools.validate', { bundleID, toolSlug: 'plain', version, tool });
      await call('tools.put', { bundleID, toolSlug: 'plain', version, tool });
      await call('tools.try', { bundleID, tool: { ...tool, argSchema: { type: 'object', properties: { n: { type: 'number' } } } }, args: {} });
      await call('tools.invoke', { bundleID, toolSlug: 'plain', version, args: {} });
    }
  });
  return { host, call, bundleID, limitMs: Math.max(HEALTH_WITHIN_MS, 2 * plainRun.slowestMs) };
}

async function largestFile(folder: string): Promise<number> {
  let largest = 0;
  for (const entry of await readdir(folder, { recursive: true, withFileTypes: true })) {
    if (entry.isFile()) largest = Math.max(largest, (await stat(path.join(entry.parentPath, entry.name))).size);
  }
  return largest;
}

describe('a script whose types double at each level (security round four)', () => {
  for (const depth of [18, 22]) {
    it(`at depth ${depth}: read, validated, saved, tried and called, a small schema each time, the host answering meanwhile within 100 ms (or twice a plain script’s slowest, on a loaded machine)`, async () => {
      const { host, call, bundleID, limitMs } = await hostWithScripts();
      const probed = await slowestHealthInBetterPass(host, limitMs, async (pass) => {
        // Optional, so a call can leave it out: a value that fits has 2^depth leaves. Named for the pass, so its
        // schema is compiled again (the core keeps the compiled ones by their text).
        const parameter = `x${pass}`;
        const args = { [parameter]: 'not an object' };
        const source = aliasChain(depth, `${parameter}?: T0`);
        const version = `v${pass}`;
        const read = await call('tools.readScript', { language: 'typescript', source });
        expect(read.problems).toEqual([]);
        expect(JSON.stringify(read.argSchema).length).toBeLessThan(10_000);
        const draft = { displayName: 'DAG', type: 'script', argSchema: read.argSchema, impl: { language: 'typescript', source } };
        expect(await call('tools.validate', { bundleID, toolSlug: 'dag', version, tool: { ...draft, argSchema: {} } })).toEqual({ issues: [] });
        const tried = await call('tools.try', { bundleID, tool: draft, args: {} });
        expect(tried).toMatchObject({ ok: true, value: 1 });
        // The schema it wrote says what the function takes: a string where an object is named is refused.
        await expect(call('tools.try', { bundleID, tool: draft, args })).rejects.toMatchObject({ code: 'invalid_args' });
        const saved = await call('tools.put', { bundleID, toolSlug: 'dag', version, tool: { ...draft, argSchema: {} } });
        expect(JSON.stringify(saved.argSchema).length).toBeLessThan(10_000);
        expect(await call('tools.invoke', { bundleID, toolSlug: 'dag', version, args: {} })).toMatchObject({ ok: true, value: 1 });
      });
      expect(probed.probes).toBeGreaterThan(3);
      expect(probed.slowestMs).toBeLessThan(limitMs);
      // Expanded, depth 18 wrote a 257 MB tool.json.
      expect(await largestFile(path.join(host.dataDir, 'bundles'))).toBeLessThan(50_000);
    }, 90_000);
  }

  it('in a ZIP with a hand-written schema: imported and called for the first time, the host answering meanwhile within 100 ms (or twice a plain script’s slowest, on a loaded machine)', async () => {
    const source = await startTestCore();
    const sourceBundle = newID();
    await source.call('bundles.put', { bundleID: sourceBundle, slug: 'dag', displayName: 'DAG' });
    await source.call('tools.put', {
      bundleID: sourceBundle,
      toolSlug: 'dag',
      version: 'v1',
      tool: ZIPPED_TOOL,
    });
    const archive = await source.call('bundles.export', { bundleID: sourceBundle });
    expect(archive.base64.length).toBeLessThan(4_000);

    const { host, call, limitMs } = await hostWithScripts();
    const probed = await slowestHealthInBetterPass(host, limitMs, async (pass) => {
      const bundleID = newID();
      // The same script, its text changed for the second pass (nothing read once is read from a cache).
      const archiveOf = pass === 1 ? archive : await source.call('bundles.export', { bundleID: await copyWithComment(source) });
      await call('bundles.importArchive', { base64: archiveOf.base64, bundleID, apply: true });
      expect(await call('tools.invoke', { bundleID, toolSlug: 'dag', version: 'v1', args: {} })).toMatchObject({ ok: true, value: 1 });
    });
    expect(probed.slowestMs).toBeLessThan(limitMs);
  }, 90_000);
});

/** Another bundle with the ZIP's tool, its text a comment longer. */
async function copyWithComment(source: Awaited<ReturnType<typeof startTestCore>>): Promise<string> {
  const bundleID = newID();
  await source.call('bundles.put', { bundleID, slug: 'dag-again', displayName: 'DAG again' });
  await source.call('tools.put', { bundleID, toolSlug: 'dag', version: 'v1', tool: { ...ZIPPED_TOOL, impl: { ...ZIPPED_TOOL.impl, source: `// again\n${ZIPPED_TOOL.impl.source}` } } });
  return bundleID;
}

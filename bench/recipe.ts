import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { v7 as uuidv7 } from 'uuid';
import { startBenchCore } from './bench-core.js';
import { percentile, report, sized } from './stats.js';

const ROUNDS = sized(200, 3);
const ITEMS = sized(1_000, 20);

/**
 * Recipe tools: a recipe of three HTTP steps (each taking a field of the
 * one before) against calling the three HTTP tools one after another
 * through the core, and a step run for each of 1,000 items against 1,000
 * calls of its tool.
 */
export async function benchRecipe(): Promise<boolean> {
  const server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://x');
    const n = Number(url.searchParams.get('n') ?? 0);
    response.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify({ n: n + 1, note: 'a small answer' }));
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const host = `127.0.0.1:${(server.address() as AddressInfo).port}`;
  const { call, close } = await startBenchCore('recipe');
  const met: boolean[] = [];
  try {
    await call('settings.patch', { allowedHosts: [host] });
    const bundleID = uuidv7();
    await call('bundles.put', { bundleID, slug: 'bench', displayName: 'Bench' });
    const put = (slug: string, tool: Record<string, unknown>) => call('tools.put', { bundleID, toolSlug: slug, version: 'v1', tool: { displayName: slug, ...tool } });
    const argSchema = { type: 'object', properties: { n: { type: 'integer' } }, required: ['n'] };
    await put('next', { type: 'http', argSchema, impl: { method: 'GET', urlTemplate: `http://${host}/next`, query: { n: '${n}' }, logging: 'quiet' } });
    const step = (id: string, from: string) => ({ id, tool: { bundleID, slug: 'next' }, args: { n: from } });
    await put('three', {
      type: 'recipe',
      argSchema,
      impl: { steps: [step('a', '${inputs.n}'), step('b', '${steps.a.result.n}'), step('c', '${steps.b.result.n}')], output: '${steps.c.result.n}' },
    });
    await put('each', {
      type: 'recipe',
      argSchema: { type: 'object', properties: { list: { type: 'array' } }, required: ['list'] },
      impl: { steps: [{ id: 'all', tool: { bundleID, slug: 'next' }, forEach: '${inputs.list}', args: { n: '${item}' } }], output: '${steps.all.result[*].n}' },
    });
    const invoke = (slug: string, args: Record<string, unknown>) => call('tools.invoke', { bundleID, toolSlug: slug, version: 'v1', args }) as Promise<{ ok: boolean; value?: unknown; error?: { message: string } }>;
    const checked = await invoke('three', { n: 1 });
    if (!checked.ok || checked.value !== 4) throw new Error(`the recipe did not run: ${checked.error?.message ?? JSON.stringify(checked.value)}`);

    const timed = async (run: () => Promise<unknown>, rounds = ROUNDS) => {
      const samples: number[] = [];
      for (let round = 0; round < rounds; round++) {
        const started = performance.now();
        await run();
        samples.push(performance.now() - started);
      }
      return samples;
    };
    const byHand = async () => {
      const a = (await invoke('next', { n: 1 })).value as { n: number };
      const b = (await invoke('next', { n: a.n })).value as { n: number };
      await invoke('next', { n: b.n });
    };
    await byHand();
    // Interleaved, so drift in the machine's speed (another process, a collection) falls on both alike.
    const recipe: number[] = [];
    const direct: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      recipe.push(...(await timed(() => invoke('three', { n: 1 }), 1)));
      direct.push(...(await timed(byHand, 1)));
    }
    met.push(report({ section: 'recipe', name: 'recipe of 3 HTTP steps, p50', ours: percentile(recipe, 50), limit: percentile(direct, 50), limitName: 'the 3 tools called one after another', goalRatio: 1.1 }));

    const list = Array.from({ length: ITEMS }, (_, index) => index);
    const eachRuns = await timed(() => invoke('each', { list }), 5);
    const oneByOne = await timed(async () => {
      for (const n of list) await invoke('next', { n });
    }, 5);
    report({ section: 'recipe', name: `for-each over ${ITEMS.toLocaleString('en')} items, p50`, ours: percentile(eachRuns, 50), limit: percentile(oneByOne, 50), limitName: `${ITEMS.toLocaleString('en')} calls of its tool one after another` });
  } finally {
    await close();
    server.close();
  }
  return met.every(Boolean);
}

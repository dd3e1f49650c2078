// API imports: a 500-operation description (the first 500 operations of
// GitHub Enterprise Server's REST API), from its text to a preview and to a
// written bundle, against parsing and dereferencing the same text alone.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { gunzipSync } from 'node:zlib';
import SwaggerParser from '@apidevtools/swagger-parser';
import { v7 as uuidv7 } from 'uuid';
import { hostApi, PROJECT_ROOT as ROOT, spawnHost } from '../testing/cores/spawned-host.js';
import { startBenchCore } from './bench-core.js';
import { percentile, report, SMOKE, type Figure, sized } from './stats.js';

const OPERATIONS = sized(500, 20);
const ROUNDS = sized(9, 3);
const STRIPE_ROUNDS = sized(7, 2);
const METHODS = new Set(['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace']);

/** The description cut to its first `count` operations (components kept whole, so every $ref still resolves). */
function firstOperations(doc: { paths: Record<string, Record<string, unknown>> }, count: number) {
  const paths: Record<string, Record<string, unknown>> = {};
  let taken = 0;
  for (const [route, item] of Object.entries(doc.paths)) {
    if (taken >= count) break;
    const kept = Object.fromEntries(Object.entries(item).filter(([key]) => !METHODS.has(key) || taken++ < count));
    paths[route] = kept;
  }
  return { ...doc, paths };
}

export async function benchImports(): Promise<boolean> {
  const whole = JSON.parse(await readFile(path.join(ROOT, 'node_modules/@octokit/openapi/generated/ghes-3.17.json'), 'utf8')) as { paths: Record<string, Record<string, unknown>> };
  const text = JSON.stringify(firstOperations(whole, OPERATIONS));
  // The bench is built into out/bench/; the import process's entry sits beside the core in out/main/.
  const { call, close } = await startBenchCore('imports', { importWorker: new URL('../main/import-worker.js', import.meta.url) });
  const parse = [] as number[];
  const preview = [] as number[];
  const write = [] as number[];
  let operations: string[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    let started = performance.now();
    await SwaggerParser.dereference(JSON.parse(text) as never, { resolve: { external: false }, dereference: { circular: 'ignore' } });
    parse.push(performance.now() - started);
    // As the import screen gives it: open (or showing the last preview), its process started ahead and ready.
    await call('imports.prepare', {});
    started = performance.now();
    const plan = (await call('imports.openapiPreview', { source: { text } })) as { operations: { key: string; tool?: unknown }[]; previewId: string };
    preview.push(performance.now() - started);
    operations = plan.operations.filter((operation) => operation.tool).map((operation) => operation.key);
    started = performance.now();
    // As the window does: the preview's reading, not the text again.
    await call('imports.openapiApply', { previewId: plan.previewId, bundleID: uuidv7(), operations });
    write.push(performance.now() - started);
  }
  // Stripe's whole description (452 operations, 2.5 MB), whose answers each name most of its API.
  const stripe = gunzipSync(await readFile(path.join(ROOT, 'main/imports/fixtures/stripe.com.json.gz'))).toString('utf8');
  const stripeParse = [] as number[];
  const stripePreview = [] as number[];
  // A round first that is not timed: each side's code for a description this large is compiled in it (the bench's
  // parser and the import process alike read their first Stripe 1.5–2× slower than the next).
  for (let round = -1; round < STRIPE_ROUNDS; round++) {
    let started = performance.now();
    await SwaggerParser.dereference(JSON.parse(stripe) as never, { resolve: { external: false }, dereference: { circular: 'ignore' } });
    if (round >= 0) stripeParse.push(performance.now() - started);
    await call('imports.prepare', {});
    started = performance.now();
    await call('imports.openapiPreview', { source: { text: stripe } });
    if (round >= 0) stripePreview.push(performance.now() - started);
  }
  const figures: Figure[] = [
    { section: 'imports', name: `preview of ${OPERATIONS} operations, p50`, ours: percentile(preview, 50), limit: percentile(parse, 50), limitName: 'parsing and dereferencing the text alone' },
    { section: 'imports', name: "preview of Stripe's description, p50", ours: percentile(stripePreview, 50), limit: percentile(stripeParse, 50), limitName: 'parsing and dereferencing the text alone', goalRatio: 2 },
    { section: 'imports', name: `import of ${operations.length} tools (one write), p50`, ours: percentile(write, 50), limit: percentile(parse, 50), limitName: 'parsing and dereferencing the text alone', goalRatio: 2 },
  ];
  const met = figures.map(report);
  await close();
  // A smoke run measures the host's memory over the small description: it checks that the figure is made, not its size.
  const memoryMet = await hostMemory(SMOKE ? text : undefined);
  return met.every(Boolean) && memoryMet;
}

const MEMORY_GOAL_MB = 300;

/** What the built host's process holds at most (VmHWM) importing GitHub's whole REST description (1,223 operations, 13 MB) through its API, as the window does. */
async function hostMemory(small?: string): Promise<boolean> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'bench-import-memory-'));
  const host = await spawnHost(['--data-dir', dataDir]);
  try {
    const megabytes = async (field: 'VmRSS' | 'VmHWM') => Number(new RegExp(`${field}:\\s+(\\d+)`).exec(await readFile(`/proc/${host.child.pid}/status`, 'utf8'))![1]) / 1024;
    const before = await megabytes('VmRSS');
    const text = small ?? (await readFile(path.join(ROOT, 'node_modules/@octokit/openapi/generated/api.github.com.json'), 'utf8'));
    const api = hostApi(host);
    const plan = (await api('POST', '/imports/openapi/preview', { source: { text } })) as { operations: { key: string; tool?: unknown }[]; previewId: string };
    const operations = plan.operations.filter((operation) => operation.tool).map((operation) => operation.key);
    await api('POST', '/imports/openapi/apply', { previewId: plan.previewId, bundleID: uuidv7(), operations });
    const peak = await megabytes('VmHWM');
    const met = peak < MEMORY_GOAL_MB;
    console.log(
      `imports host memory, ${small ? 'the cut description' : "GitHub's description whole"} (${operations.length} tools)   peak ${peak.toFixed(0)} MB, ${before.toFixed(0)} MB before it   goal < ${MEMORY_GOAL_MB} MB: ${met ? 'met' : 'MISSED'}`,
    );
    return met;
  } finally {
    host.child.kill();
    await host.exited;
    await rm(dataDir, { recursive: true, force: true });
  }
}

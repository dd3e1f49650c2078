import { readdirSync, readFileSync } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import Fuse from 'fuse.js';
import { v7 as uuidv7 } from 'uuid';
import type { ToolInput } from '../shared/schemas/tool.js';
import { createAjv } from '../main/common/validation.js';
import { createCore } from '../main/core/create-core.js';
import { createDocumentValidator } from '../main/store/document-validation.js';
import { createLayout } from '../main/store/layout.js';
import { ToolStore } from '../main/store/tool-store.js';
import { silentLogger } from '../main/log.js';
import { createKeyFileCipher } from '../main/secrets/key-file-cipher.js';
import { catalogSearchDocuments } from '../main/store/catalog.js';
import { writeFileAtomically } from '../main/common/json-files.js';
import { FUSE_OPTIONS } from '../main/search/tool-search.js';
import { seedBundle } from '../testing/data/seed.js';
import { percentile, report, timeEach, type Figure, sized } from './stats.js';

const BUNDLES = sized(100, 2);
const TOOLS_PER_BUNDLE = sized(100, 5);
const LOAD_ROUNDS = sized(7, 3);
const WORDS = ['weather', 'forecast', 'invoice', 'customer', 'search', 'github', 'issue', 'calendar', 'event', 'email', 'send', 'translate', 'stock', 'price', 'currency', 'convert', 'map', 'route', 'image', 'resize', 'database', 'query', 'report', 'sales', 'ticket', 'support', 'deploy', 'build', 'log', 'metric'];
const QUERIES = ['weather', 'wea', 'send email', 'invoice', 'git', 'calendar event', 'stock price', 'convert currency', 'translat', 'resize image', 'query', 'deploy build', 'ticket', 'metric', 'custmer', 'reprot', 'route', 'log', 'sales report', 'map'];

function word(seed: number, offset: number): string {
  return WORDS[(seed * 7 + offset * 13) % WORDS.length]!;
}

function toolDocument(seed: number) {
  const a = word(seed, 1);
  const b = word(seed, 2);
  return {
    slug: `${a}-${b}-${seed}`,
    displayName: `${a[0]!.toUpperCase()}${a.slice(1)} ${b} ${seed}`,
    description: `Looks up the ${a} for a ${b} and returns it as JSON. Useful when someone asks about ${word(seed, 3)} or ${word(seed, 4)}.`,
    tags: [a, b],
    modifiedAt: new Date(Date.UTC(2026, 0, 1) + seed * 60_000).toISOString(),
    argSchema: {
      type: 'object',
      properties: { [a]: { type: 'string', description: `The ${a}` }, limit: { type: 'integer', minimum: 1, maximum: 100 } },
      required: [a],
    },
    impl: { method: 'GET' as const, urlTemplate: `https://api.example.com/${a}/\${${a}}`, query: { limit: '${limit}' } },
  };
}

/** The limit: the fastest plain way to read and parse every file (synchronous reads beat the thread pool here). */
function rawReadAndParse(dataDir: string): number {
  const bundlesDir = path.join(dataDir, 'bundles');
  let count = 0;
  for (const bundleID of readdirSync(bundlesDir)) {
    JSON.parse(readFileSync(path.join(bundlesDir, bundleID, 'bundle.json'), 'utf8'));
    const toolsDir = path.join(bundlesDir, bundleID, 'tools');
    for (const file of readdirSync(toolsDir)) {
      JSON.parse(readFileSync(path.join(toolsDir, file), 'utf8'));
      count++;
    }
  }
  return count;
}

async function openStore(dataDir: string): Promise<void> {
  const store = await ToolStore.open({
    layout: createLayout(dataDir),
    validator: createDocumentValidator(createAjv({ strict: false })),
    clock: { now: () => new Date() },
    log: silentLogger,
    onChange: () => {},
  });
  await store.close();
}

export async function benchStore(): Promise<boolean> {
  const dataDir = path.join(os.tmpdir(), `toolbelt-bench-store-${process.pid}`);
  await rm(dataDir, { recursive: true, force: true });
  await mkdir(dataDir, { recursive: true });
  console.log(`store: seeding ${BUNDLES * TOOLS_PER_BUNDLE} tools in ${BUNDLES} bundles…`);
  for (let bundle = 0; bundle < BUNDLES; bundle++) {
    await seedBundle(dataDir, {
      bundle: { slug: `bundle-${bundle}`, displayName: `Bundle ${bundle}` },
      tools: Array.from({ length: TOOLS_PER_BUNDLE }, (_, index) => toolDocument(bundle * TOOLS_PER_BUNDLE + index)),
    });
  }
  const cipher = await createKeyFileCipher(path.join(dataDir, 'secrets.key'));
  const open = () =>
    createCore({ dataDir, hostKind: 'browser', app: { name: 'Toolbelt', version: 'bench' }, cipher, log: silentLogger, watchFiles: false, reaperIntervalMs: 3_600_000 });

  // Warm the OS file cache so both sides read from memory.
  // One untimed round of each warms the file cache and the JIT alike.
  rawReadAndParse(dataDir);
  await openStore(dataDir);
  const loads: number[] = [];
  const firstLoads: number[] = [];
  const raws: number[] = [];
  const cacheFile = path.join(dataDir, 'cache', 'validated-tools.json');
  for (let round = 0; round < LOAD_ROUNDS; round++) {
    raws.push(...(await timeEach(1, () => rawReadAndParse(dataDir))));
    // The store's own cold load; the core around it (dispatcher schemas, cipher) is not the store.
    loads.push(...(await timeEach(1, () => openStore(dataDir))));
    // The first start after an upgrade (or a lost cache) checks every file in full.
    await rm(cacheFile, { force: true });
    firstLoads.push(...(await timeEach(1, () => openStore(dataDir))));
  }
  const figures: Figure[] = [
    {
      section: 'store',
      name: `cold load, ${(BUNDLES * TOOLS_PER_BUNDLE).toLocaleString('en')} tools (median of ${LOAD_ROUNDS})`,
      ours: percentile(loads, 50),
      limit: percentile(raws, 50),
      limitName: 'readdir + readFile + JSON.parse',
      goalRatio: 2,
    },
    {
      section: 'store',
      name: 'first load after an upgrade (no cache)',
      ours: percentile(firstLoads, 50),
      limit: percentile(raws, 50),
      limitName: 'readdir + readFile + JSON.parse',
    },
  ];

  const core = await open();
  const call = (name: string, params: unknown) => core.dispatcher.call(name, params, { transport: 'internal' });
  const bundleID = uuidv7();
  await call('bundles.put', { bundleID, slug: 'bench', displayName: 'Bench' });
  // 100 tools already in the bundle, as in the seeded ones.
  const input = (index: number): ToolInput => {
    const { slug: _slug, modifiedAt: _modifiedAt, ...definition } = toolDocument(index);
    return { ...definition, type: 'http' };
  };
  for (let index = 0; index < TOOLS_PER_BUNDLE; index++) {
    await call('tools.put', { bundleID, toolSlug: `warm-${index}`, version: 'v1', tool: input(index) });
  }
  const sample = await call('tools.get', { bundleID, toolSlug: 'warm-0', version: 'v1' });
  const bytes = JSON.stringify(sample, null, 2) + '\n';
  const scratch = path.join(dataDir, 'scratch');
  await mkdir(scratch);
  const puts = await timeEach(sized(200, 3), (index) => call('tools.put', { bundleID, toolSlug: `put-${index}`, version: 'v1', tool: input(index) }));
  const writes = await timeEach(sized(200, 3), (index) => writeFileAtomically(path.join(scratch, `${index}.json`), bytes, { within: scratch }));
  figures.push({
    section: 'store',
    name: 'tools.put p50 (bundle of 100-300 tools)',
    ours: percentile(puts, 50),
    limit: percentile(writes, 50),
    limitName: 'atomic write of the same bytes',
    goalRatio: 3,
  });

  const documents = catalogSearchDocuments(core.store);
  const fuse = new Fuse(documents, FUSE_OPTIONS, Fuse.createIndex(FUSE_OPTIONS.keys!, documents));
  await call('tools.search', { q: 'warm' }); // builds the index once, as the first keystroke does
  const searches: number[] = [];
  const bare: number[] = [];
  for (let round = 0; round < sized(5); round++) {
    for (const q of QUERIES) {
      bare.push(...(await timeEach(1, () => fuse.search(q))));
      searches.push(...(await timeEach(1, () => call('tools.search', { q, pageSize: 50 }))));
    }
  }
  figures.push({
    section: 'store',
    name: 'tools.search p95, 20 queries × 5 rounds',
    ours: percentile(searches, 95),
    limit: percentile(bare, 95),
    limitName: 'bare Fuse search, same records',
    goalRatio: 1.5,
    goalAbsoluteMs: 16,
  });
  await core.close();
  await rm(dataDir, { recursive: true, force: true });
  return figures.map(report).every(Boolean);
}

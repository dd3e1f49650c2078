// Tool search: a catalogue of real tools (GitHub's REST description as
// Toolbelt imports it, and the tools of published MCP servers) and requests
// written the way people ask, each labelled with the tools that would do it.
// Reports hit@1, hit@5 and MRR for the ranking and the variants it was
// chosen over, the tokens of tool definitions per request with `all`
// against `search`, and search latency at 10,000 tools.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import type { SearchOptions } from 'minisearch';
import { v7 as uuidv7 } from 'uuid';
import { PROJECT_ROOT as ROOT } from '../testing/cores/spawned-host.js';
import { SEARCH_OPTIONS, ToolTextIndex, type IndexedTool } from '../main/search/tool-index.js';
import { documentOf } from '../main/tools/search/search-catalogue.js';
import { exposeTools } from '../main/tools/exposure.js';
import { TOOL_SEARCH_TOOL } from '../main/builtins/index.js';
import { startBenchCore } from './bench-core.js';
import { percentile, report, sized } from './stats.js';

interface Labelled {
  ask: string;
  tools: string[];
}

const MCP = path.join(ROOT, 'node_modules/@modelcontextprotocol');
const LIMIT = 5;
/** The catalogue is copied to this many tools for the latency figure. */
const AT_SCALE = sized(10_000, 200);

/** The published MCP servers whose tools join the catalogue, as Toolbelt starts them. */
function mcpServers(folder: string): Record<string, { command: string; args: string[] }> {
  const node = (script: string, ...args: string[]) => ({ command: process.execPath, args: [path.join(MCP, script), ...args] });
  return {
    everything: node('server-everything/dist/index.js', 'stdio'),
    filesystem: node('server-filesystem/dist/index.js', folder),
    memory: node('server-memory/dist/index.js'),
  };
}

/** hit@1, hit@5 and mean reciprocal rank of a ranking over the labelled requests. */
function quality(requests: Labelled[], ids: Map<string, string>, rank: (ask: string) => string[], names: Map<string, string> = new Map()) {
  let hit1 = 0;
  let hit5 = 0;
  let reciprocal = 0;
  const misses: string[] = [];
  for (const request of requests) {
    const wanted = new Set(request.tools.map((label) => ids.get(label)!));
    const ranked = rank(request.ask);
    const at = ranked.findIndex((toolID) => wanted.has(toolID));
    if (at === 0) hit1++;
    if (at >= 0 && at < LIMIT) hit5++;
    else misses.push(`${request.ask}  (at ${at + 1 || 'none'}; first ${ranked.slice(0, 3).map((toolID) => names.get(toolID)).join(', ')})`);
    if (at >= 0) reciprocal += 1 / (at + 1);
  }
  const n = requests.length;
  return { hit1: hit1 / n, hit5: hit5 / n, mrr: reciprocal / n, misses };
}

export async function benchToolSearch(): Promise<boolean> {
  const { requests } = JSON.parse(await readFile(path.join(ROOT, 'bench/fixtures/tool-search-eval.json'), 'utf8')) as { requests: Labelled[] };
  const folder = await mkdtemp(path.join(os.tmpdir(), 'toolbelt-bench-files-'));
  const { core, call, close } = await startBenchCore('tool-search');
  try {
    // The catalogue, as a person would build it: an import and three MCP servers.
    const text = await readFile(path.join(ROOT, 'node_modules/@octokit/openapi/generated/api.github.com.json'), 'utf8');
    const github = uuidv7();
    const plan = (await call('imports.openapiPreview', { source: { text } })) as { operations: { key: string; tool?: unknown }[] };
    await call('imports.openapiApply', { source: { text }, bundleID: github, operations: plan.operations.filter((operation) => operation.tool).map((operation) => operation.key) });
    const bundles = new Map([['github', github]]);
    for (const [name, config] of Object.entries(mcpServers(folder))) {
      const server = (await call('mcpServers.put', { name, config })) as { bundleID: string; state: string };
      if (server.state !== 'connected') throw new Error(`the MCP server ${name} did not connect (${server.state})`);
      bundles.set(name, server.bundleID);
    }

    // Labels to tool IDs: a label that names no tool is a broken evaluation set, not a miss.
    const ids = new Map<string, string>();
    const names = new Map<string, string>();
    const documents: IndexedTool[] = [];
    for (const [catalogue, bundleID] of bundles) {
      for (const record of core.store.validToolsOf(bundleID)) {
        ids.set(`${catalogue}/${record.tool.slug}`, record.toolID);
        names.set(record.toolID, `${catalogue}/${record.tool.slug}`);
        documents.push(documentOf(record, core.store.bundle(bundleID)));
      }
    }
    const unknown = requests.flatMap((request) => request.tools).filter((label) => !ids.has(label));
    if (unknown.length) throw new Error(`the evaluation set names tools the catalogue does not have: ${[...new Set(unknown)].join(', ')}`);
    const all = new Set(documents.map((document) => document.toolID));
    console.log(`tool-search catalogue: ${documents.length} tools (GitHub ${core.store.validToolsOf(github).length}, MCP ${documents.length - core.store.validToolsOf(github).length}), ${requests.length} labelled requests`);

    // Ranking quality: ours, and the variants it was chosen over.
    const index = new ToolTextIndex();
    for (const document of documents) index.put(document);
    const variants: [string, SearchOptions][] = [
      ['ours (BM25+, weights, prefix, synonyms)', {}],
      ['with typo-tolerant matching', { fuzzy: (term) => (term.length >= 5 ? 0.2 : false) }],
      ['no prefix matching', { prefix: false }],
      ['equal field weights', { boost: { name: 1, displayName: 1, tags: 1, bundle: 1, description: 1, args: 1 } }],
      ['names and titles 3', { boost: { ...SEARCH_OPTIONS.boost, name: 3, displayName: 3 } }],
      ['description 2', { boost: { ...SEARCH_OPTIONS.boost, description: 2 } }],
      ['without argument text', { fields: ['name', 'displayName', 'description', 'tags', 'bundle'] }],
      ['arguments weigh little (0.1)', { boost: { ...SEARCH_OPTIONS.boost, args: 0.1 } }],
      ['arguments weigh as descriptions', { boost: { ...SEARCH_OPTIONS.boost, args: 1 } }],
      ['all words required (AND)', { combineWith: 'AND' }],
    ];
    const onePass = new ToolTextIndex(1);
    for (const document of documents) onePass.put(document);
    let met = true;
    for (const [name, options] of [...variants, ['in one pass', {}] as [string, SearchOptions]]) {
      const searched = name === 'in one pass' ? onePass : index;
      const figures = quality(requests, ids, (ask) => searched.search(ask, all, 20, options).map((hit) => hit.toolID), names);
      const goal = name.startsWith('ours') ? `goal hit@5 ≥ 0.9: ${figures.hit5 >= 0.9 ? 'met' : 'MISSED'}` : '';
      if (name.startsWith('ours')) met = figures.hit5 >= 0.9 && met;
      console.log(`tool-search ${name.padEnd(42)} hit@1 ${figures.hit1.toFixed(2)}  hit@5 ${figures.hit5.toFixed(2)}  MRR ${figures.mrr.toFixed(2)}  ${goal}`);
      if (name.startsWith('ours') && process.argv.includes('--misses')) for (const miss of figures.misses) console.log(`  missed: ${miss}`);
    }

    // Definitions per request: every GitHub tool on every turn, against tool_search and the five it loads.
    const chatTools = { mode: 'auto' as const, selected: [], bundles: [{ bundleID: github }] };
    const offeredAll = await exposeTools(chatTools, core.resolver, { discovery: 'all' });
    const searching = await exposeTools(chatTools, core.resolver, { discovery: 'search', toolSearch: TOOL_SEARCH_TOOL });
    const githubIDs = new Set(core.store.validToolsOf(github).map((record) => record.toolID));
    const byID = new Map([...searching.deferred.values(), ...searching.byName.values()].map((tool) => [tool.record.toolID, tool]));
    const searchTokens = requests.map((request) => {
      const found = index.search(request.ask, githubIDs, LIMIT).map((hit) => byID.get(hit.toolID)!.definition);
      return Math.ceil(JSON.stringify([...searching.definitions, ...found]).length / 4);
    });
    const allTokens = offeredAll.discovery.offeredTokens;
    const share = percentile(searchTokens, 50) / allTokens;
    met = share <= 0.05 && met;
    console.log(
      `tool-search definitions per request, GitHub (${githubIDs.size} tools)  search p50 ${percentile(searchTokens, 50)} tokens, p95 ${percentile(searchTokens, 95)} vs all ${allTokens} tokens: ${(share * 100).toFixed(2)} %   goal ≤ 5 %: ${share <= 0.05 ? 'met' : 'MISSED'}`,
    );

    // Latency at 10,000 tools: the catalogue copied under other bundles' names, against a plain scan of the same text.
    const big = new ToolTextIndex();
    const bigOnePass = new ToolTextIndex(1);
    const texts: { toolID: string; text: string }[] = [];
    for (let copy = 0; texts.length < AT_SCALE; copy++) {
      for (const document of documents) {
        if (texts.length >= AT_SCALE) break;
        const copied = { ...document, toolID: `${document.toolID}-${copy}`, bundle: `${document.bundle} copy ${copy}` };
        big.put(copied);
        bigOnePass.put(copied);
        texts.push({ toolID: copied.toolID, text: Object.values(copied).join(' ').toLowerCase() });
      }
    }
    const everyID = new Set(texts.map((entry) => entry.toolID));
    // Each request in turns, the first round a warm-up.
    const timed = (run: (ask: string) => unknown) => {
      const samples: number[] = [];
      for (let round = 0; round < 3; round++) {
        for (const request of requests) {
          const started = performance.now();
          run(request.ask);
          if (round > 0) samples.push(performance.now() - started);
        }
      }
      return samples;
    };
    const ours = timed((ask) => big.search(ask, everyID, LIMIT));
    const scan = timed((ask) => {
      const words = ask.toLowerCase().split(/\s+/);
      return texts.filter((entry) => words.some((word) => entry.text.includes(word))).slice(0, LIMIT);
    });
    const real = timed((ask) => index.search(ask, all, LIMIT));
    const inOnePass = timed((ask) => bigOnePass.search(ask, everyID, LIMIT));
    console.log(`tool-search at ${AT_SCALE.toLocaleString('en')} tools in one pass: p50 ${percentile(inOnePass, 50).toFixed(2)} ms, p95 ${percentile(inOnePass, 95).toFixed(2)} ms`);
    console.log(`tool-search at ${documents.length} tools (the catalogue itself): p50 ${percentile(real, 50).toFixed(2)} ms, p95 ${percentile(real, 95).toFixed(2)} ms`);
    met = report({ section: 'search', name: `tool_search at ${AT_SCALE.toLocaleString('en')} tools, p95`, ours: percentile(ours, 95), limit: percentile(scan, 95), limitName: 'a plain substring scan of them', goalAbsoluteMs: 10 }) && met;
    return met;
  } finally {
    await close();
    await rm(folder, { recursive: true, force: true });
  }
}

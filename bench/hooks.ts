// Hooks around tool calls: what the gate costs when no hook applies (the common case), and what a command hook
// adds to a call against starting a bare process, in one run.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { performance } from 'node:perf_hooks';
import { silentLogger } from '../main/log.js';
import { createToolHooks } from '../main/hooks/tool-hooks.js';
import type { ToolFile } from '../shared/schemas/tool.js';
import { CORE_BUNDLE as CORE } from '../testing/data/fixtures.js';
import { startBenchCore } from './bench-core.js';
import { percentile, report, timeInTurns, type Figure, sized } from './stats.js';

const GATE_ROUNDS = sized(200_000);
const CALL_ROUNDS = sized(200, 3);
const HOOK_BUNDLE = '01a2008d-7400-7000-8000-0000000000b0';

/** Starting `/bin/sh -c true` and waiting for it: what any command hook costs at least. */
async function bareSpawn(): Promise<void> {
  const child = spawn('/bin/sh', ['-c', 'true'], { stdio: ['pipe', 'pipe', 'pipe'] });
  child.stdin.on('error', () => undefined);
  child.stdin.end('{}');
  await once(child, 'close');
}

export async function benchHooks(): Promise<boolean> {
  const figures: Figure[] = [];

  // The gate with hooks configured for other tools only: the matcher is tried, nothing runs.
  const hooks = createToolHooks({ hooks: () => ({ PreToolUse: [{ matcher: 'some-other-tool', hooks: [{ type: 'command', command: 'true' }] }] }), bundleSlug: () => 'core', bundleHooks: () => undefined, cwd: process.cwd(), hostAllowed: () => false, runScript: () => Promise.reject(new Error('no script hooks here')), log: silentLogger });
  const tool = { toolID: 't', bundleID: CORE, slug: 'calculator', version: 'v1', type: 'local', displayName: 'Calculator', argSchema: {}, impl: { func: 'core.calculate' } } as unknown as ToolFile;
  const args = { expression: '1 + 1' };
  const result = { ok: true as const, value: 2, durationMs: 0, attempts: 1 };
  const gate = async () => {
    await hooks.before(tool, args, { caller: { kind: 'person' } });
    await hooks.after(tool, args, { caller: { kind: 'person' } }, result);
  };
  const bare = async () => {
    await Promise.resolve(null);
    await Promise.resolve(null);
  };
  for (let i = 0; i < sized(20_000); i++) await gate();
  let started = performance.now();
  for (let i = 0; i < GATE_ROUNDS; i++) await gate();
  const gateMs = (performance.now() - started) / GATE_ROUNDS;
  started = performance.now();
  for (let i = 0; i < GATE_ROUNDS; i++) await bare();
  const bareMs = (performance.now() - started) / GATE_ROUNDS;
  figures.push({ section: 'hooks', name: 'gate per call, no hook applies', ours: gateMs, limit: bareMs, limitName: 'two awaited no-ops', goalAbsoluteMs: 0.005 });

  // A command hook (`true`) before a calculator call, against the same call without it and a bare process start.
  const { call, close } = await startBenchCore('hooks');
  const invoke = () => call('tools.invoke', { bundleID: CORE, toolSlug: 'calculator', version: 'v1', args });
  const plain = await timeInTurns(CALL_ROUNDS, sized(20), invoke, bareSpawn);
  await call('settings.patch', { hooks: { PreToolUse: [{ matcher: 'calculator', hooks: [{ type: 'command', command: 'true' }] }] } });
  const hooked = await timeInTurns(CALL_ROUNDS, sized(20), invoke, bareSpawn);
  const added = percentile(hooked.ours, 50) - percentile(plain.ours, 50);
  const spawnMs = percentile([...plain.limit, ...hooked.limit], 50);
  figures.push({ section: 'hooks', name: 'a command hook adds to a call (p50)', ours: added, limit: spawnMs + 5, limitName: 'a bare process start + 5 ms', goalRatio: 1 });

  // A script hook (a script tool of the person's, in the sandbox) instead: no process started.
  await call('bundles.put', { bundleID: HOOK_BUNDLE, slug: 'hooks', displayName: 'Hooks' });
  await call('tools.put', { bundleID: HOOK_BUNDLE, toolSlug: 'guard', version: 'v1', tool: { displayName: 'Guard', type: 'script', argSchema: {}, impl: { language: 'javascript', source: 'export default async function (tool_input) { return tool_input.expression ? {} : { decision: "block" }; }' } } });
  await call('settings.patch', { hooks: { PreToolUse: [{ matcher: 'calculator', hooks: [{ type: 'script', tool: 'hooks/guard' }] }] } });
  const scripted = await timeInTurns(CALL_ROUNDS, sized(20), invoke, () => Promise.resolve(null));
  const scriptAdded = percentile(scripted.ours, 50) - percentile(plain.ours, 50);
  figures.push({ section: 'hooks', name: 'a script hook adds to a call (p50)', ours: scriptAdded, limit: percentile(plain.ours, 50), limitName: 'the call without hooks', goalAbsoluteMs: 1 });
  await close();
  return figures.map(report).every(Boolean);
}

import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDirForTest } from '../testing/harness/test-temp-dir.js';
import { ensureDependencies, missingDependencies } from './dependencies.mjs';

const lock = (packages: Record<string, unknown>) => JSON.stringify({ name: 'toolbelt', lockfileVersion: 3, packages: { '': { name: 'toolbelt' }, ...packages } });

async function project(installed: Record<string, unknown> | null) {
  const root = await tempDirForTest();
  await writeFile(path.join(root, 'package-lock.json'), lock({ 'node_modules/vite': { version: '8.3.4' }, 'node_modules/@esbuild/win32-x64': { version: '0.25.0', optional: true } }));
  if (installed) {
    await mkdir(path.join(root, 'node_modules'));
    await writeFile(path.join(root, 'node_modules', '.package-lock.json'), lock(installed));
  }
  return root;
}

describe('npm start and npm test on a fresh clone', () => {
  it('install the packages first (npm ci), saying so in one line, when node_modules is missing', async () => {
    const root = await project(null);
    const runs: unknown[][] = [];
    const said: string[] = [];
    expect(ensureDependencies(root, { run: (...args) => (runs.push(args), { status: 0 }), log: (line) => said.push(line) })).toBe(true);
    expect(runs.map(([command, args]) => [command, args])).toEqual([['npm', ['ci', '--no-audit', '--no-fund']]]);
    expect(said).toEqual(["Installing Toolbelt's packages first (npm ci): they are not installed yet. This takes a minute or two, once."]);
  });

  it('do nothing when every package of the lock file is there (optional ones of other systems not asked for), and reinstall when one is at another version', async () => {
    expect(missingDependencies(await project({ 'node_modules/vite': { version: '8.3.4' } }))).toEqual([]);
    const stale = await project({ 'node_modules/vite': { version: '7.0.0' } });
    expect(missingDependencies(stale)).toEqual(['vite']);
    const runs: unknown[] = [];
    ensureDependencies(stale, { run: (...args) => (runs.push(args), { status: 0 }), log: () => {} });
    expect(runs).toHaveLength(1);
  });

  it('stop with what to do when npm fails', async () => {
    const root = await project(null);
    expect(() => ensureDependencies(root, { run: () => ({ status: 1 }), log: () => {} })).toThrow('npm ci failed (exit 1); run it yourself to see why, then try again.');
  });
});

import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../testing/cores/spawned-host.js';

/** Every source file of the house (tests aside) with the project files it imports, type imports included. */
function importGraph(): Map<string, string[]> {
  const files: string[] = [];
  const walk = (folder: string) => {
    for (const entry of readdirSync(folder)) {
      const full = path.join(folder, entry);
      if (statSync(full).isDirectory()) {
        if (entry !== 'node_modules' && entry !== 'fixtures') walk(full);
      } else if (/\.tsx?$/.test(entry) && !/\.test\.tsx?$/.test(entry) && !entry.endsWith('.d.ts')) files.push(full);
    }
  };
  for (const folder of ['app', 'preload', 'main', 'renderer', 'shared', 'testing']) walk(path.join(PROJECT_ROOT, folder));
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const imports: string[] = [];
    for (const match of readFileSync(file, 'utf8').matchAll(/(?:import|export)[^'"]*?from\s+['"](\.[^'"]+)['"]/g)) {
      const base = path.resolve(path.dirname(file), match[1]!).replace(/\.js$/, '');
      const found = ['.ts', '.tsx'].map((extension) => base + extension).find((candidate) => existsSync(candidate));
      if (found) imports.push(found);
    }
    graph.set(file, imports);
  }
  return graph;
}

describe('the import graph', () => {
  it('has no circle: every file can be understood from the ones it imports', () => {
    const graph = importGraph();
    const state = new Map<string, 'open' | 'done'>();
    const trail: string[] = [];
    const circles: string[] = [];
    const visit = (file: string) => {
      state.set(file, 'open');
      trail.push(file);
      for (const next of graph.get(file) ?? []) {
        if (state.get(next) === 'open') circles.push([...trail.slice(trail.indexOf(next)), next].map((entry) => path.relative(PROJECT_ROOT, entry)).join(' → '));
        else if (!state.has(next)) visit(next);
      }
      trail.pop();
      state.set(file, 'done');
    };
    for (const file of graph.keys()) if (!state.has(file)) visit(file);
    expect(graph.size).toBeGreaterThan(300);
    expect(circles).toEqual([]);
  });
});

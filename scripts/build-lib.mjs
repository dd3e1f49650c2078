// Builds the four targets with Vite and skips the work when nothing changed.
import { existsSync, statSync, readdirSync, writeFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const TARGETS = ['renderer', 'main', 'sandbox-worker', 'signature-worker', 'import-worker', 'pdf-worker', 'app', 'preload'];
const OUTPUTS = ['out/renderer/index.html', 'out/main/server.js', 'out/main/sandbox-worker.js', 'out/main/signature-worker.js', 'out/main/import-worker.js', 'out/main/pdf-worker.js', 'out/app/main.js', 'out/preload/preload.cjs'];
const INPUT_DIRS = ['app', 'main', 'preload', 'renderer', 'shared'];
const INPUT_FILES = ['vite.config.ts', 'package.json', 'package-lock.json'];
const STAMP = path.join(ROOT, 'out', '.build-stamp');

function newestMtime(dir) {
  let newest = 0;
  if (!existsSync(dir)) return newest;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestMtime(full));
    else if (!/\.test\.tsx?$/.test(entry.name)) newest = Math.max(newest, statSync(full).mtimeMs);
  }
  return newest;
}

/** True when an output is missing or a source is newer than the last build. */
export function isBuildStale() {
  if (!existsSync(STAMP) || OUTPUTS.some((file) => !existsSync(path.join(ROOT, file)))) return true;
  const built = statSync(STAMP).mtimeMs;
  const inputs = [
    ...INPUT_DIRS.map((dir) => newestMtime(path.join(ROOT, dir))),
    ...INPUT_FILES.map((file) => (existsSync(path.join(ROOT, file)) ? statSync(path.join(ROOT, file)).mtimeMs : 0)),
  ];
  return Math.max(...inputs) > built;
}

export async function buildAll({ log = (line) => process.stderr.write(line + '\n') } = {}) {
  const { build } = await import('vite');
  const started = Date.now();
  log('Building Toolbelt (renderer, core, Electron shell, preload)…');
  // Always what ships: Vite keeps a NODE_ENV it finds, and a build started from the unit tests (vitest sets "test")
  // would bundle React's development build, which e2e and `npm start` would then run.
  const inherited = process.env.NODE_ENV;
  process.env.NODE_ENV = 'production';
  try {
    for (const mode of TARGETS) {
      await build({ configFile: path.join(ROOT, 'vite.config.ts'), mode, logLevel: 'warn' });
    }
  } finally {
    if (inherited === undefined) delete process.env.NODE_ENV;
    else process.env.NODE_ENV = inherited;
  }
  mkdirSync(path.dirname(STAMP), { recursive: true });
  writeFileSync(STAMP, new Date().toISOString() + '\n');
  log(`Built in ${((Date.now() - started) / 1000).toFixed(1)} s.`);
}

export async function ensureBuilt(options) {
  if (isBuildStale()) await buildAll(options);
}

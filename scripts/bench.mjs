// npm run bench [-- section…]: builds the bench with the same transform as the
// shipped core (tsx's loader wraps every closure in a naming helper the build
// does not have, which would be measured as ours), then runs it.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { ROOT } from './build-lib.mjs';

// Section names; the values of --json FILE and --compare FILE are not sections.
const wanted = process.argv.slice(2).filter((arg, index, all) => !arg.startsWith('-') && !/^--(json|compare)$/.test(all[index - 1] ?? ''));
// The UI and apps sections drive the built app (renderer and browser host) in Chromium; imports measure the built host's memory;
// script runs the built sandbox worker, tool-search the built import process (it imports an API description).
if (wanted.length === 0 || ['ui', 'imports', 'apps', 'script', 'tool-search'].some((section) => wanted.includes(section))) {
  const { ensureBuilt } = await import('./build-lib.mjs');
  await ensureBuilt();
}
const { build } = await import('vite');
await build({ configFile: path.join(ROOT, 'vite.config.ts'), mode: 'bench', logLevel: 'warn' });
const result = spawnSync(process.execPath, [path.join(ROOT, 'out/bench/run.js'), ...process.argv.slice(2)], { cwd: ROOT, stdio: 'inherit' });
process.exit(result.status ?? 1);

// npm start and npm test on a fresh clone: the packages first, with a line
// saying so, instead of dying on the first import (ERR_MODULE_NOT_FOUND: vite).
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

function packagesOf(file) {
  try {
    return JSON.parse(readFileSync(file, 'utf8')).packages ?? {};
  } catch {
    return null;
  }
}

/**
 * What node_modules lacks of what package-lock.json names (npm keeps what it
 * installed in node_modules/.package-lock.json): missing packages, and ones
 * at another version. Packages optional for other systems are not asked for.
 */
export function missingDependencies(root) {
  const wanted = packagesOf(path.join(root, 'package-lock.json'));
  const installed = packagesOf(path.join(root, 'node_modules', '.package-lock.json'));
  if (!installed) return ['node_modules'];
  if (!wanted) return [];
  const missing = [];
  for (const [where, entry] of Object.entries(wanted)) {
    if (where === '' || entry.optional || entry.link) continue;
    if (installed[where]?.version !== entry.version) missing.push(where.replace(/^node_modules\//, ''));
  }
  return missing;
}

/** Installs what is missing (npm ci from the lock file), saying so in one line; throws when npm fails. */
export function ensureDependencies(root, { run = spawnSync, log = (line) => console.error(line), label = "Toolbelt's packages" } = {}) {
  const missing = missingDependencies(root);
  if (missing.length === 0) return false;
  const command = existsSync(path.join(root, 'package-lock.json')) ? 'ci' : 'install';
  const what = missing[0] === 'node_modules' ? 'they are not installed yet' : `${missing.length} are missing or out of date (${missing.slice(0, 3).join(', ')}${missing.length > 3 ? ', …' : ''})`;
  log(`Installing ${label} first (npm ${command}): ${what}. This takes a minute or two, once.`);
  const result = run(process.platform === 'win32' ? 'npm.cmd' : 'npm', [command, '--no-audit', '--no-fund'], { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) throw new Error(`npm ${command} failed (exit ${result.status ?? result.signal}); run it yourself to see why, then try again.`);
  return true;
}

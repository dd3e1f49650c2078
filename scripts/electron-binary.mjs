// Where the Electron binary is, if anywhere: ELECTRON_PATH, or the one the
// electron package downloaded (npm run setup:electron).
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

const require = createRequire(import.meta.url);

export function findElectronBinary(env = process.env) {
  if (env.ELECTRON_PATH) {
    return existsSync(env.ELECTRON_PATH)
      ? { path: env.ELECTRON_PATH }
      : { path: null, reason: `ELECTRON_PATH points to ${env.ELECTRON_PATH}, which does not exist` };
  }
  // Not require('electron'): the package's index.js now downloads the binary when
  // it is missing, printing to stdout and reaching for the network at start.
  // The package records the binary's place in path.txt; read it as it would.
  let electronDir;
  try {
    electronDir = path.dirname(require.resolve('electron/package.json'));
  } catch {
    return { path: null, reason: 'the electron package is not installed' };
  }
  const pathFile = path.join(electronDir, 'path.txt');
  const binary = existsSync(pathFile) ? path.join(electronDir, 'dist', readFileSync(pathFile, 'utf8').trim()) : null;
  return binary && existsSync(binary) ? { path: binary } : { path: null, reason: 'its binary has not been downloaded' };
}

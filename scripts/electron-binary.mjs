// Where the Electron binary is, if anywhere: ELECTRON_PATH, or the one the
// electron package downloaded. The package's index.js throws when the
// download never happened (as on machines without internet).
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

export function findElectronBinary(env = process.env) {
  if (env.ELECTRON_PATH) {
    return existsSync(env.ELECTRON_PATH)
      ? { path: env.ELECTRON_PATH }
      : { path: null, reason: `ELECTRON_PATH points to ${env.ELECTRON_PATH}, which does not exist` };
  }
  try {
    const binary = require('electron');
    if (typeof binary === 'string' && existsSync(binary)) return { path: binary };
    return { path: null, reason: 'the electron package has no binary' };
  } catch (error) {
    const missingPackage = error && error.code === 'MODULE_NOT_FOUND';
    return {
      path: null,
      reason: missingPackage ? 'the electron package is not installed' : 'its binary has not been downloaded',
    };
  }
}

// npm run setup:electron: downloads the Electron binary for the pinned
// version (electron's own installer). Offline or behind a wall, it says so in
// one line with what to do, instead of the installer's stack trace.
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';
import { ROOT } from './build-lib.mjs';

const require = createRequire(import.meta.url);
const { version } = require('electron/package.json');
const result = spawnSync(process.execPath, [path.join(ROOT, 'node_modules/electron/install.js')], { cwd: ROOT, encoding: 'utf8' });
if (result.status === 0) {
  console.log(`Electron ${version} is ready; npm start opens the desktop app.`);
  process.exit(0);
}
const output = `${result.stderr ?? ''}${result.stdout ?? ''}`;
// The installer prints an error's stack: its first line says what happened, its code says why.
const first = output.split('\n').find((line) => line.trim() !== '')?.trim() ?? `the installer exited with ${result.status}`;
const code = /\b(E[A-Z]{3,}|HTTPError: Response code \d+[^)]*)/.exec(output)?.[1];
const said = (code && !first.includes(code) ? `${first} (${code})` : first).replace(/^(Type)?Error: /, '');
// Node's fetch says only "fetch failed" when no connection could be made.
const reason = said === 'fetch failed' ? 'the download site could not be reached (fetch failed)' : said;
console.error(`Could not download Electron ${version}: ${reason}. Check the network (or HTTPS_PROXY / ELECTRON_MIRROR), or set ELECTRON_PATH to an Electron binary you already have; without it, npm start runs the browser host.`);
process.exit(1);

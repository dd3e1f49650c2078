// npm run dev: the renderer with Vite HMR, proxied to a browser host on a
// fixed port. Core changes need a restart of this command.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { ensureBuilt, ROOT } from './build-lib.mjs';
import { HOST_NODE_FLAGS } from './host-node-flags.mjs';

const API_PORT = Number(process.env.TOOLBELT_DEV_API_PORT ?? 5174);
const token = randomBytes(24).toString('base64url');

await ensureBuilt();
const host = spawn(
  process.execPath,
  // `--token=` joined: a random token may begin with "-", which the host would read as an option (1 start in 64).
  [...HOST_NODE_FLAGS, path.join(ROOT, 'out/main/server.js'), '--port', String(API_PORT), `--token=${token}`, ...process.argv.slice(2)],
  { stdio: ['ignore', 'pipe', 'inherit'] },
);
host.on('exit', (code) => {
  console.error(`The browser host stopped (exit ${code}).`);
  process.exit(code ?? 1);
});
// The page is only useful once the core answers: wait for the host's one line.
await new Promise((resolve) => {
  let seen = '';
  host.stdout.on('data', (chunk) => {
    seen += chunk;
    if (seen.includes('\n')) resolve();
  });
});

process.env.TOOLBELT_DEV_API = `http://127.0.0.1:${API_PORT}`;
const { createServer } = await import('vite');
const vite = await createServer({ configFile: path.join(ROOT, 'vite.config.ts'), mode: 'renderer' });
await vite.listen();
const address = vite.resolvedUrls?.local[0] ?? 'http://127.0.0.1:5173/';
console.log(`Toolbelt (dev, hot reload) is running at ${address}#token=${token}`);

const stop = async () => {
  host.removeAllListeners('exit');
  host.kill('SIGTERM');
  await vite.close();
  process.exit(0);
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);

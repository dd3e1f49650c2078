// npm start: build if needed, then the desktop app when Electron can run,
// else the browser host (opened in the system browser when there is a display).
import { spawn } from 'node:child_process';
import path from 'node:path';
import { ensureBuilt, ROOT } from './build-lib.mjs';
import { ensureDependencies } from './dependencies.mjs';
import { findElectronBinary } from './electron-binary.mjs';
import { HOST_NODE_FLAGS } from './host-node-flags.mjs';

ensureDependencies(ROOT);
await ensureBuilt();
const electron = findElectronBinary();

if (electron.path) {
  const child = spawn(electron.path, [ROOT, ...process.argv.slice(2)], { stdio: 'inherit' });
  child.on('exit', (code, signal) => process.exit(signal ? 1 : (code ?? 0)));
  for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
} else {
  console.error(
    `Electron cannot start here (${electron.reason}; \`npm run setup:electron\` downloads it), so Toolbelt runs in your browser instead.`,
  );
  // The terminal is for people: the host's JSON log goes to a file in the data folder unless asked otherwise.
  const userArgs = process.argv.slice(2);
  const logArgs = userArgs.some((arg) => arg === '--log-file' || arg.startsWith('--log-file=')) ? [] : ['--log-file=logs/browser-host.log'];
  const host = spawn(process.execPath, [...HOST_NODE_FLAGS, path.join(ROOT, 'out/main/server.js'), ...logArgs, ...userArgs], {
    stdio: ['inherit', 'pipe', 'inherit'],
  });
  let opened = false;
  host.stdout.setEncoding('utf8').on('data', (chunk) => {
    process.stdout.write(chunk);
    const url = /http:\/\/127\.0\.0\.1:\d+\/#token=\S+/.exec(chunk)?.[0];
    if (url && !opened) {
      opened = true;
      openInBrowser(url);
    }
  });
  host.on('exit', (code, signal) => process.exit(signal ? 0 : (code ?? 0)));
  // The host handles Ctrl+C itself (same process group); SIGTERM to us alone is passed on.
  process.on('SIGINT', () => {});
  process.on('SIGTERM', () => host.kill('SIGTERM'));
}

function hasDisplay() {
  if (process.platform === 'darwin' || process.platform === 'win32') return true;
  return Boolean(process.env.DISPLAY || process.env.WAYLAND_DISPLAY);
}

function openInBrowser(url) {
  if (!hasDisplay() || process.env.CI) {
    console.error('No display found: open the address above in a browser.');
    return;
  }
  const [command, args] =
    process.platform === 'darwin' ? ['open', [url]]
    : process.platform === 'win32' ? ['cmd', ['/c', 'start', '""', url]]
    : ['xdg-open', [url]];
  const opener = spawn(command, args, { stdio: 'ignore', detached: true });
  opener.on('error', () => console.error('Could not open a browser: open the address above yourself.'));
  opener.unref();
}

// npm run serve -- --data-dir DIR [--port N] [--token T]
// Builds what is missing or stale, then runs the browser host in this process
// so Ctrl+C and SIGTERM reach it directly.
import { pathToFileURL } from 'node:url';
import path from 'node:path';
import { ensureBuilt, ROOT } from './build-lib.mjs';

if (!process.argv.includes('--help') && !process.argv.includes('-h')) await ensureBuilt();
await import(pathToFileURL(path.join(ROOT, 'out/main/server.js')).href);

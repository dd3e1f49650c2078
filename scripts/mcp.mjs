// npm run --silent mcp -- [--data-dir DIR]: Toolbelt's MCP server over stdio.
// Builds what is missing or stale (saying so on stderr: stdout carries only
// the protocol), then serves in this process. --silent keeps npm's own
// banner off stdout; other apps run `node out/main/server.js mcp …` directly.
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { ensureBuilt, ROOT } from './build-lib.mjs';

await ensureBuilt();
process.argv.splice(2, 0, 'mcp');
await import(pathToFileURL(path.join(ROOT, 'out/main/server.js')).href);

// Runs an MCP server script after noting that it started: `node counted-start.mjs <log file> <server script> [args…]`
// appends a line to the log, then runs the script as if it had been started itself. Tests count starts with it
// (a client that probes a stdio server starts it twice).
import { appendFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';

const [log, script, ...args] = process.argv.slice(2);
appendFileSync(log, `${process.pid}\n`);
process.argv = [process.argv[0], script, ...args];
await import(pathToFileURL(script).href);

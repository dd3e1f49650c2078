import { parseArgs } from 'node:util';
import { StdioServerTransport } from '@modelcontextprotocol/server/stdio';
import { APP_IDENTITY } from '../app-identity.js';
import { createLogger, type LogLevel } from '../log.js';
import { defaultDataDir } from './data-dir.js';
import { openFolderCore } from './folder-core.js';

export const MCP_USAGE = `Usage: npm run --silent mcp -- [--data-dir DIR] [--log-level debug|info|warn|error]

Serves the tools of the bundles you share in Toolbelt (Settings → MCP server)
over stdio, for MCP clients that start a command. Safe next to a running
Toolbelt on the same folder. Tools that ask before every call are refused:
there is no window to ask in (use the HTTP address for those).

  --data-dir DIR   the Toolbelt data folder (default: the desktop app's folder)`;

const LOG_LEVELS: readonly LogLevel[] = ['debug', 'info', 'warn', 'error'];

/** `server.js mcp …`: Toolbelt's MCP server on stdin/stdout; logs go to stderr, stdout carries only the protocol. */
export async function runMcpStdio(argv: string[]): Promise<void> {
  let values;
  try {
    ({ values } = parseArgs({ args: argv, options: { 'data-dir': { type: 'string' }, 'log-level': { type: 'string' }, help: { type: 'boolean', short: 'h' } }, strict: true }));
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\n\n${MCP_USAGE}\n`);
    process.exitCode = 2;
    return;
  }
  if (values.help) {
    process.stderr.write(MCP_USAGE + '\n');
    return;
  }
  const level = (values['log-level'] ?? 'warn') as LogLevel;
  if (!LOG_LEVELS.includes(level)) {
    process.stderr.write(`--log-level must be one of ${LOG_LEVELS.join(', ')}.\n`);
    process.exitCode = 2;
    return;
  }
  const log = createLogger({ level });
  // No window belongs to this process: tools that ask first are refused with what to do.
  const { core, dataDir } = await openFolderCore(values['data-dir'] ?? defaultDataDir(APP_IDENTITY.name), log, { windowOpen: () => false });
  const transport = new StdioServerTransport();
  let stopping = false;
  let exitCode = 0;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    core.close().then(
      () => process.exit(exitCode),
      (error: unknown) => {
        log.error('closing failed', { error: String(error) });
        process.exit(1);
      },
    );
  };
  process.stdin.once('end', stop);
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  core.mcpShare.serve(transport, {
    // The SDK closes the transport on a line past its 10 MB limit without a word: say why, and exit as a failure.
    onError: (error) => {
      if (!/exceeded maximum size/i.test(error.message)) return log.debug('the MCP connection reported', { error: error.message });
      process.stderr.write(`toolbelt mcp: a message from the client is larger than the 10 MB a message may be; stopping. (${error.message})\n`);
      exitCode = 1;
    },
    onClosed: stop,
  });
  log.info('MCP server on stdio', { dataDir });
}

import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { APP_IDENTITY } from '../app-identity.js';
import { createLogger } from '../log.js';
import { openLogFile } from './log-file.js';
import { parseServeOptions, SERVE_USAGE, UsageError } from './cli-options.js';
import { defaultDataDir } from './data-dir.js';
import { startAppSandbox } from './app-sandbox.js';
import { startHttpHost } from './http-host.js';
import { runMcpStdio } from './mcp-stdio.js';
import { openFolderCore } from './folder-core.js';

const SHUTDOWN_GRACE_MS = 4_000;

/** `npm run serve`: the browser host. Prints exactly one line on stdout, the URL. */
export async function main(argv: string[]): Promise<void> {
  if (argv[0] === 'mcp') return runMcpStdio(argv.slice(1));
  const here = path.dirname(fileURLToPath(import.meta.url));
  let options;
  try {
    options = parseServeOptions(argv, {
      dataDir: defaultDataDir(APP_IDENTITY.name),
      rendererDir: path.resolve(here, '../renderer'),
    });
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    process.stderr.write(`${error.message}\n\n${SERVE_USAGE}\n`);
    process.exitCode = 2;
    return;
  }
  if (options === 'help') {
    process.stdout.write(SERVE_USAGE + '\n');
    return;
  }

  const dataDir = path.resolve(options.dataDir);
  const logFile = options.logFile === null ? null : openLogFile(path.resolve(dataDir, options.logFile));
  const log = createLogger({ level: options.logLevel, ...(logFile ? { write: (line: string) => logFile.write(line) } : {}) });
  if (options.logFile !== null) process.stderr.write(`Toolbelt's log: ${path.resolve(dataDir, options.logFile)}\n`);
  const rendererDir = existsSync(path.join(options.rendererDir, 'index.html')) ? options.rendererDir : null;
  if (!rendererDir) log.warn('renderer is not built; serving the API only', { rendererDir: options.rendererDir });
  // MCP Apps run on a second origin (a loopback port of their own), never the window's.
  const appSandbox = rendererDir ? await startAppSandbox({ rendererDir, log }) : null;
  const { core } = await openFolderCore(dataDir, log, {
    mcpShare: { listen: true, stdioCommand: { command: process.execPath, args: [fileURLToPath(import.meta.url), 'mcp', '--data-dir', dataDir] } },
    ...(appSandbox ? { appSandboxOrigin: appSandbox.origin, appDocuments: appSandbox.documents } : {}),
  });
  const host = await startHttpHost({ core, token: options.token, port: options.port, rendererDir, log, ...(appSandbox ? { appSandboxOrigin: appSandbox.origin } : {}) });

  process.stdout.write(`Toolbelt is running at ${host.url}\n`);
  log.info('browser host started', { port: host.port, dataDir });

  let stoppingSince: number | null = null;
  const stop = (signal: NodeJS.Signals) => {
    if (stoppingSince !== null) {
      // Ctrl+C under `npm run` arrives twice at once (the terminal signals the
      // process group and npm forwards it), and some libraries re-raise
      // signals: only a signal well after the first means "quit now".
      if (Date.now() - stoppingSince < 1_000) return;
      log.warn('second signal, exiting now', { signal });
      process.exit(1);
    }
    stoppingSince = Date.now();
    log.info('stopping', { signal });
    const force = setTimeout(() => {
      log.error('shutdown took too long, exiting');
      process.exit(1);
    }, SHUTDOWN_GRACE_MS);
    force.unref();
    Promise.all([host.close(), core.close(), appSandbox?.close()]).then(
      () => {
        clearTimeout(force);
        process.exit(0);
      },
      (error: unknown) => {
        log.error('shutdown failed', { error: String(error) });
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

import { randomBytes } from 'node:crypto';
import { parseArgs } from 'node:util';
import type { LogLevel } from '../log.js';

export interface ServeOptions {
  dataDir: string;
  port: number;
  token: string;
  rendererDir: string;
  logLevel: LogLevel;
  /** Where the JSON log lines go instead of stderr; relative to the data folder. */
  logFile: string | null;
}

export const SERVE_USAGE = `Usage: npm run serve -- [--data-dir DIR] [--port N] [--token T] [--log-level debug|info|warn|error] [--log-file FILE]

  --data-dir DIR   where bundles, chats and settings live (default: the desktop app's folder)
  --port N         port on 127.0.0.1; 0 or absent picks a free one
  --token T        access token; absent makes a random one (at least 16 characters)
  --log-file FILE  append the JSON log lines to FILE (relative to the data folder) instead of stderr`;

export class UsageError extends Error {}

const LOG_LEVELS: readonly LogLevel[] = ['debug', 'info', 'warn', 'error'];

export function parseServeOptions(
  argv: string[],
  defaults: { dataDir: string; rendererDir: string },
): ServeOptions | 'help' {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        'data-dir': { type: 'string' },
        port: { type: 'string' },
        token: { type: 'string' },
        'renderer-dir': { type: 'string' },
        'log-level': { type: 'string' },
        'log-file': { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  if (values.help) return 'help';

  const port = values.port === undefined ? 0 : Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65_535) {
    throw new UsageError(`--port must be a whole number from 0 to 65535, got "${values.port}".`);
  }
  const token = values.token ?? randomBytes(24).toString('base64url');
  if (token.length < 16 || !/^[A-Za-z0-9._~-]+$/.test(token)) {
    throw new UsageError('--token must be at least 16 characters of letters, digits, ".", "_", "~" or "-".');
  }
  const logLevel = (values['log-level'] ?? 'info') as LogLevel;
  if (!LOG_LEVELS.includes(logLevel)) {
    throw new UsageError(`--log-level must be one of ${LOG_LEVELS.join(', ')}.`);
  }
  return {
    dataDir: values['data-dir'] ?? defaults.dataDir,
    port,
    token,
    rendererDir: values['renderer-dir'] ?? defaults.rendererDir,
    logLevel,
    logFile: values['log-file'] || null,
  };
}

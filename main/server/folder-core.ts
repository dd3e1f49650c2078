import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { APP_IDENTITY } from '../app-identity.js';
import { installProcessGuards } from '../common/process-guards.js';
import { createCore, type Core, type CoreOptions } from '../core/create-core.js';
import type { Logger } from '../log.js';
import { createKeyFileCipher } from '../secrets/key-file-cipher.js';

/**
 * The core of a command-line host (the browser host, the stdio MCP server)
 * on a data folder: the folder made private if new, secrets under its key
 * file, providers from the environment, and the process guarded.
 */
export async function openFolderCore(folder: string, log: Logger, options: Partial<CoreOptions> = {}): Promise<{ core: Core; dataDir: string }> {
  installProcessGuards(log);
  const dataDir = path.resolve(folder);
  await mkdir(dataDir, { recursive: true, mode: 0o700 });
  const core = await createCore({
    dataDir,
    hostKind: 'browser',
    app: APP_IDENTITY,
    cipher: await createKeyFileCipher(path.join(dataDir, 'secrets.key')),
    log,
    environment: process.env,
    ...options,
  });
  return { core, dataDir };
}

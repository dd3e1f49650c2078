import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createCore, type Core, type CoreOptions } from '../../main/core/create-core.js';
import { silentLogger } from '../../main/log.js';
import { createKeyFileCipher } from '../../main/secrets/key-file-cipher.js';

/**
 * The real core on a fresh temporary folder, quiet, without the file
 * watcher, outside a test runner (the bench, the conformance suite's client
 * and server); `close` removes the folder.
 */
export interface ScratchCore {
  core: Core;
  call: (operation: string, params: unknown) => Promise<unknown>;
  close: () => Promise<void>;
  /** Closes this core and starts another on the same data folder, as a restart of the app does. */
  restart: () => Promise<ScratchCore>;
}

export async function startScratchCore(name: string, options: Partial<CoreOptions> = {}, given?: string): Promise<ScratchCore> {
  const dataDir = given ?? (await mkdtemp(path.join(os.tmpdir(), `toolbelt-${name}-`)));
  const core = await createCore({
    dataDir,
    hostKind: 'browser',
    app: { name: 'Toolbelt', version: name },
    cipher: await createKeyFileCipher(path.join(dataDir, 'secrets.key')),
    log: silentLogger,
    watchFiles: false,
    ...options,
  });
  return {
    core,
    call: (operation: string, params: unknown) => core.dispatcher.call(operation, params, { transport: 'internal' }),
    close: async () => {
      await core.close();
      await rm(dataDir, { recursive: true, force: true });
    },
    restart: async () => {
      await core.close();
      return startScratchCore(name, options, dataDir);
    },
  };
}

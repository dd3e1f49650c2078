import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createCore, type CoreOptions } from '../core.js';
import { silentLogger } from '../log.js';
import { createKeyFileCipher } from '../secrets/key-file-cipher.js';

/**
 * The real core on a fresh temporary folder, quiet, without the file
 * watcher, outside a test runner (the bench, the conformance suite's client
 * and server); `close` removes the folder.
 */
export async function startScratchCore(name: string, options: Partial<CoreOptions> = {}) {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), `toolbelt-${name}-`));
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
  };
}

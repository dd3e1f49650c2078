import path from 'node:path';
import { onTestFinished } from 'vitest';
import type { ParamsOf, ResultOf } from '../../shared/operation.js';
import type { OperationName, Operations } from '../../shared/operations/index.js';
import { ToolbeltError } from '../../shared/errors.js';
import { createCore, type Core, type CoreOptions } from '../../main/core/create-core.js';
import { silentLogger } from '../../main/log.js';
import { createKeyFileCipher } from '../../main/secrets/key-file-cipher.js';
import { tempDirForTest } from './test-temp-dir.js';

/** A clock tests move by hand. */
export function manualClock(start = '2026-03-01T10:00:00.000Z') {
  let now = Date.parse(start);
  return {
    now: () => new Date(now),
    advance(ms: number) {
      now += ms;
    },
  };
}

export interface TestCore {
  core: Core;
  dataDir: string;
  call: <K extends OperationName>(name: K, params: ParamsOf<Operations[K]>) => Promise<ResultOf<Operations[K]>>;
  /** The ToolbeltError a call fails with (the test fails if it succeeds). */
  failure: (name: OperationName, params: unknown) => Promise<ToolbeltError>;
  /** Closes the core and opens a new one on the same folder; `whileStopped` runs in between. */
  reopen: (whileStopped?: () => Promise<void>) => Promise<TestCore>;
}

/** The real core on a fresh data folder, closed when the test ends. */
export async function startTestCore(options: Partial<CoreOptions> & { dataDir?: string } = {}): Promise<TestCore> {
  const dataDir = options.dataDir ?? (await tempDirForTest());
  const core = await createCore({
    hostKind: 'browser',
    app: { name: 'Toolbelt', version: '0.0.0-test' },
    cipher: await createKeyFileCipher(path.join(dataDir, 'secrets.key')),
    log: silentLogger,
    watchFiles: false,
    ...options,
    dataDir,
  });
  let closed = false;
  const close = async () => {
    if (!closed) await core.close();
    closed = true;
  };
  onTestFinished(close);
  const call = (async (name: OperationName, params: unknown) =>
    core.dispatcher.call(name, params, { transport: 'internal' })) as TestCore['call'];
  return {
    core,
    dataDir,
    call,
    async failure(name, params) {
      const outcome: unknown = await core.dispatcher.call(name, params, { transport: 'internal' }).then(
        () => new Error(`${name} succeeded but was expected to fail`),
        (error: unknown) => error,
      );
      if (!(outcome instanceof ToolbeltError)) throw outcome;
      return outcome;
    },
    async reopen(whileStopped) {
      await close();
      await whileStopped?.();
      return startTestCore({ ...options, dataDir });
    },
  };
}

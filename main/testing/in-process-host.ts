import path from 'node:path';
import { createCore, type Core, type CoreOptions } from '../core.js';
import { silentLogger } from '../log.js';
import { createKeyFileCipher } from '../secrets/key-file-cipher.js';
import { startHttpHost, type HttpHost } from '../server/http-host.js';
import { makeTempDir } from './temp-dir.js';
import type { ListenerLimits } from '../common/listener-limits.js';

export const TEST_TOKEN = 'test-token-0123456789abcdef';

export interface InProcessHost {
  core: Core;
  host: HttpHost;
  base: string;
  dataDir: string;
  authorization: { Authorization: string };
  stop(): Promise<void>;
}

/** The real core behind the real browser host, on a free loopback port. */
export async function startInProcessHost(options: { heartbeatMs?: number; rendererDir?: string | null; limits?: ListenerLimits; mcpShareLimits?: ListenerLimits; core?: Partial<CoreOptions> } = {}): Promise<InProcessHost> {
  const temp = await makeTempDir();
  const core = await createCore({
    dataDir: temp.dir,
    hostKind: 'browser',
    app: { name: 'Toolbelt', version: '9.9.9-test' },
    cipher: await createKeyFileCipher(path.join(temp.dir, 'secrets.key')),
    log: silentLogger,
    heartbeatMs: options.heartbeatMs,
    ...(options.mcpShareLimits ? { mcpShare: { listen: true, listenerLimits: options.mcpShareLimits } } : {}),
    ...options.core,
  });
  const host = await startHttpHost({
    core,
    token: TEST_TOKEN,
    port: 0,
    rendererDir: options.rendererDir ?? null,
    log: silentLogger,
    ...(options.limits ? { limits: options.limits } : {}),
  });
  return {
    core,
    host,
    base: `http://127.0.0.1:${host.port}`,
    dataDir: temp.dir,
    authorization: { Authorization: `Bearer ${TEST_TOKEN}` },
    async stop() {
      await host.close();
      await core.close();
      await temp.cleanup();
    },
  };
}

import path from 'node:path';
import { createCore, type Core, type CoreOptions } from '../../main/core/create-core.js';
import { silentLogger } from '../../main/log.js';
import { createKeyFileCipher } from '../../main/secrets/key-file-cipher.js';
import { startHttpHost, type HttpHost } from '../../main/server/http-host.js';
import { makeTempDir } from '../cores/temp-dir.js';
import type { ListenerLimits } from '../../main/common/listener-limits.js';

export const TEST_TOKEN = 'test-token-0123456789abcdef';

export interface InProcessHost {
  core: Core;
  host: HttpHost;
  base: string;
  dataDir: string;
  authorization: { Authorization: string };
  /** One request to the host with the token, JSON in and out: its status and parsed body (null when empty). */
  request(method: string, path: string, body?: unknown): Promise<{ status: number; body: Record<string, unknown> | null }>;
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
  const base = `http://127.0.0.1:${host.port}`;
  const authorization = { Authorization: `Bearer ${TEST_TOKEN}` };
  return {
    core,
    host,
    base,
    dataDir: temp.dir,
    authorization,
    async request(method, path, body) {
      const response = await fetch(`${base}${path}`, {
        method,
        headers: { ...authorization, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await response.text();
      return { status: response.status, body: text ? (JSON.parse(text) as Record<string, unknown>) : null };
    },
    async stop() {
      await host.close();
      await core.close();
      await temp.cleanup();
    },
  };
}

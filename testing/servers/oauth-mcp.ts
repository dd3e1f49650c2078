import { spawn } from 'node:child_process';
import { once } from 'node:events';
import path from 'node:path';
import { PROJECT_ROOT } from '../cores/spawned-host.js';

/** The OAuth-protected MCP server (testing/servers/oauth-mcp-server.mjs) in its own process; the caller stops it. */
export async function startOAuthMcpServer(options: { preRegisteredClient?: string } = {}): Promise<{
  url: string;
  base: string;
  counts: () => Promise<{ issued: number; refreshed: number }>;
  /** Every access token issued so far expires now. */
  expireTokens: () => Promise<void>;
  stop: () => Promise<void>;
}> {
  const child = spawn(process.execPath, [path.join(PROJECT_ROOT, 'testing/servers/oauth-mcp-server.mjs')], {
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, ...(options.preRegisteredClient ? { PRE_REGISTERED_CLIENT: options.preRegisteredClient } : {}) },
  });
  const stop = async () => {
    child.kill();
    if (child.exitCode === null && child.signalCode === null) await once(child, 'exit');
  };
  const [line] = (await once(child.stdout, 'data')) as [Buffer];
  const { url, base } = JSON.parse(line.toString()) as { url: string; base: string };
  return {
    url,
    base,
    stop,
    counts: async () => (await fetch(new URL('/counts', base))).json() as Promise<{ issued: number; refreshed: number }>,
    expireTokens: async () => {
      const answer = await fetch(new URL('/expire', base), { method: 'POST' });
      if (!answer.ok) throw new Error(`the OAuth server did not expire its tokens: ${answer.status}`);
    },
  };
}

import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { freePort } from '../../testing/cores/free-port.js';
import { PROJECT_ROOT } from '../../testing/cores/spawned-host.js';
import { startTestCore } from '../../testing/harness/test-core.js';

const SCRIPT = path.join(PROJECT_ROOT, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js');
const running: ChildProcess[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map(stop));
});

/** The published everything server over Streamable HTTP on a port, up once it says it listens. */
async function startEverything(port: number): Promise<ChildProcess> {
  const child = spawn(process.execPath, [SCRIPT, 'streamableHttp'], { env: { ...process.env, PORT: String(port) }, stdio: ['ignore', 'ignore', 'pipe'] });
  running.push(child);
  let said = '';
  await new Promise<void>((resolve, reject) => {
    child.stderr.on('data', (chunk: Buffer) => {
      said += chunk.toString();
      if (said.includes('listening on port')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`the everything server exited (${code}): ${said}`)));
  });
  return child;
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill();
  await once(child, 'exit');
}

describe('a remote MCP server that restarts', () => {
  it('gets a new session when it has forgotten the old one, the call goes through, and the panel says so', async () => {
    const port = await freePort();
    const first = await startEverything(port);
    const { call } = await startTestCore();
    const server = await call('mcpServers.put', { name: 'remote everything', config: { url: `http://127.0.0.1:${port}/mcp` } });
    expect(server.state).toBe('connected');
    const echo = () => call('tools.invoke', { bundleID: server.bundleID, toolSlug: 'echo', version: 'mcp', args: { message: 'hello' } });
    expect(await echo()).toMatchObject({ ok: true });

    // The server restarts: every session it had is gone (it answers 400 "No valid session ID provided").
    await stop(first);
    await startEverything(port);
    expect(await echo()).toMatchObject({ ok: true, value: expect.stringContaining('hello') as unknown });
    const [view] = (await call('mcpServers.list', {})).servers;
    expect(view).toMatchObject({ state: 'connected', notice: expect.stringContaining('had forgotten its session (it may have restarted); Toolbelt started a new one') as unknown });
  });
});

import { freePort } from '../../testing/cores/free-port.js';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import path from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { PROJECT_ROOT } from '../../testing/cores/spawned-host.js';
import { expectOk } from '../../testing/harness/invoke-harness.js';
import { startTestCore } from '../../testing/harness/test-core.js';


/** server-everything over HTTP ("streamableHttp" or the older "sse"), on a free port, stopped when the test ends. */
async function startEverything(transport: 'streamableHttp' | 'sse'): Promise<number> {
  const port = await freePort();
  const child = spawn(process.execPath, [path.join(PROJECT_ROOT, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js'), transport], {
    env: { ...process.env, PORT: String(port) },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  onTestFinished(async () => {
    child.kill();
    if (child.exitCode === null) await once(child, 'exit');
  });
  await new Promise<void>((resolve, reject) => {
    let said = '';
    child.stderr.on('data', (chunk: Buffer) => {
      said += chunk.toString();
      if (/listening on port|running on port/i.test(said)) resolve();
    });
    child.on('exit', (code) => reject(new Error(`server-everything ${transport} exited with ${code}: ${said}`)));
  });
  return port;
}

describe('MCP servers over HTTP (server-everything)', () => {
  it('connects over Streamable HTTP and runs a tool', async () => {
    const port = await startEverything('streamableHttp');
    const { call } = await startTestCore();
    const server = await call('mcpServers.put', { name: 'remote', config: { url: `http://127.0.0.1:${port}/mcp` } });
    expect(server).toMatchObject({ state: 'connected', serverInfo: { name: 'mcp-servers/everything' } });
    expect(expectOk(await call('tools.invoke', { bundleID: server.bundleID, toolSlug: 'echo', version: 'mcp', args: { message: 'over http' } })).value).toBe('Echo: over http');
  });

  it('falls back to HTTP+SSE when the server answers the Streamable HTTP handshake with a 4xx', async () => {
    const port = await startEverything('sse');
    const { call } = await startTestCore();
    const server = await call('mcpServers.put', { name: 'older', config: { url: `http://127.0.0.1:${port}/sse` } });
    expect(server.state).toBe('connected');
    expect(expectOk(await call('tools.invoke', { bundleID: server.bundleID, toolSlug: 'echo', version: 'mcp', args: { message: 'over sse' } })).value).toBe('Echo: over sse');
  });

  it('says why when nothing answers at the URL', async () => {
    const { call } = await startTestCore();
    const server = await call('mcpServers.put', { name: 'nobody', config: { url: `http://127.0.0.1:${await freePort()}/mcp` } });
    expect(server).toMatchObject({ state: 'failed', error: { code: 'mcp_unreachable', message: expect.stringContaining('could not be reached') as unknown } });
  });
});

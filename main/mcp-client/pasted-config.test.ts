import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { CallToolResult } from '@modelcontextprotocol/client';
import { afterEach, describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../../testing/cores/spawned-host.js';
import { startTestCore } from '../../testing/harness/test-core.js';
import { tempDirForTest } from '../../testing/harness/test-temp-dir.js';

const node = (script: string, ...args: string[]) => ({ command: process.execPath, args: [path.join(PROJECT_ROOT, 'node_modules/@modelcontextprotocol', script), ...args] });
const EVERYTHING = 'server-everything/dist/index.js';
const FILESYSTEM = 'server-filesystem/dist/index.js';
const text = (value: unknown) => JSON.stringify(value);

const saved = { ...process.env };
afterEach(() => {
  process.env = { ...saved };
});

describe('MCP server configs as people paste them', () => {
  it('takes Claude Code’s "type": "stdio", a name with spaces, and environment variables in args, and lists and deletes it', async () => {
    const { call } = await startTestCore();
    process.env.NOTES_DIR = await tempDirForTest();
    const block = node(FILESYSTEM, '${env:NOTES_DIR}');
    const { servers } = await call('mcpServers.import', { mcpServers: { 'my files': { type: 'stdio', ...block, autoApprove: ['read_file'] } } });
    expect(servers.map((server) => [server.name, server.state])).toEqual([['my files', 'connected']]);
    expect(servers[0]!.config).toEqual(block);
    const allowed = await call('tools.invoke', { bundleID: servers[0]!.bundleID, toolSlug: 'list_allowed_directories', version: 'mcp', args: {} });
    expect(text(allowed)).toContain(path.basename(process.env.NOTES_DIR));
    expect((await call('mcpServers.list', {})).servers.map((server) => server.name)).toEqual(['my files']);
    await call('mcpServers.delete', { name: 'my files' });
    expect((await call('mcpServers.list', {})).servers).toEqual([]);
  });

  it('takes VS Code’s { servers, inputs }: an input becomes a secret of that name, which the server gets once it is set', async () => {
    const { call } = await startTestCore();
    const vscode = { servers: { everything: { type: 'stdio', ...node(EVERYTHING, 'stdio'), env: { API_KEY: '${input:api-key}' } } }, inputs: [{ id: 'api-key', type: 'promptString', password: true }] };
    const pasted = await call('mcpServers.import', vscode);
    expect(pasted.secretsToSet).toEqual(['API_KEY']);
    expect(pasted.servers[0]).toMatchObject({ name: 'everything', state: 'failed', error: { message: expect.stringContaining('needs the secret API_KEY') as unknown } });
    await call('secrets.put', { name: 'API_KEY', value: 'from-vscode-input' });
    const restarted = await call('mcpServers.restart', { name: 'everything' });
    expect(restarted.state).toBe('connected');
    const env = (await call('tools.invoke', { bundleID: restarted.bundleID, toolSlug: 'get-env', version: 'mcp', args: {} })) as { value?: CallToolResult };
    expect(text(env)).toContain('from-vscode-input');
  });

  it('takes Windsurf’s serverUrl, and a ${NAME:-default} with neither secret nor variable set', async () => {
    const { call } = await startTestCore();
    const { servers } = await call('mcpServers.import', { mcpServers: { remote: { serverUrl: 'http://127.0.0.1:9/mcp', headers: { 'X-Team': '${TEAM:-platform}' } } } });
    expect(servers[0]!.config).toEqual({ url: 'http://127.0.0.1:9/mcp', headers: { 'X-Team': '${TEAM:-platform}' } });
    expect(servers[0]!.error?.code).not.toBe('invalid_params');
  });

  it('never hands a server Toolbelt’s own keys, from its secrets or its environment', async () => {
    const { call } = await startTestCore();
    process.env.OPENAI_API_KEY = 'sk-toolbelt-own';
    for (const [name, value] of [['bare', '${OPENAI_API_KEY}'], ['vscode', '${env:OPENAI_API_KEY}'], ['secret', '${secret.PROVIDER_OPENAI_API_KEY}']] as const) {
      const server = await call('mcpServers.put', { name, config: { ...node(EVERYTHING, 'stdio'), env: { KEY: value } } });
      expect(server).toMatchObject({ state: 'failed', error: { code: 'secret_reserved' } });
    }
  });

  it('refuses a paste with one server it cannot use, saying which, and writes none of it; a name mcp.json holds that no list could show is left out', async () => {
    const { call, failure, dataDir } = await startTestCore();
    const refused = await failure('mcpServers.import', { mcpServers: { good: node(EVERYTHING, 'stdio'), bad: { command: 5 }, 'tab\tname': node(EVERYTHING, 'stdio') } });
    expect(refused).toMatchObject({ code: 'invalid_params', message: expect.stringContaining('Nothing was added') as unknown });
    expect(refused.message).toContain('bad:');
    expect(refused.message).toContain("cannot be a server's name");
    expect((await call('mcpServers.list', {})).servers).toEqual([]);
    await writeFile(path.join(dataDir, 'mcp.json'), JSON.stringify({ mcpServers: { 'bell\u0007': { command: 'x' }, ok: { command: 'definitely-not-a-command-42' } } }));
    const restarted = await startTestCore({ dataDir });
    expect((await restarted.call('mcpServers.list', {})).servers.map((server) => server.name)).toEqual(['ok']);
  });
});

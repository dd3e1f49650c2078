import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../../testing/cores/spawned-host.js';
import { startTestCore } from '../../testing/harness/test-core.js';
import { tempDirForTest } from '../../testing/harness/test-temp-dir.js';
import { claudeDesktopConfigPath } from './claude-desktop.js';

describe('import from Claude Desktop', () => {
  it('knows where Claude Desktop keeps its configuration on each system', () => {
    expect(claudeDesktopConfigPath('darwin', {}, '/Users/ada')).toBe('/Users/ada/Library/Application Support/Claude/claude_desktop_config.json');
    expect(claudeDesktopConfigPath('win32', { APPDATA: 'C:\\Users\\ada\\AppData\\Roaming' }, 'C:\\Users\\ada')).toContain(path.join('Claude', 'claude_desktop_config.json'));
    expect(claudeDesktopConfigPath('linux', {}, '/home/ada')).toBe('/home/ada/.config/Claude/claude_desktop_config.json');
  });

  it('adds the servers of its file, and says so when there is no file or a server Toolbelt cannot take', async () => {
    const folder = await tempDirForTest();
    const file = path.join(folder, 'Claude', 'claude_desktop_config.json');
    const { call, failure } = await startTestCore({ claudeDesktopConfig: file });
    expect((await failure('mcpServers.importClaudeDesktop', {})).message).toContain(`There is no Claude Desktop configuration at ${file}`);

    await mkdir(path.dirname(file), { recursive: true });
    const everything = { command: process.execPath, args: [path.join(PROJECT_ROOT, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js'), 'stdio'] };
    await writeFile(file, JSON.stringify({ mcpServers: { 'bad\u0007name': everything, everything: { ...everything, extra: 1 } }, globalShortcut: 'Ctrl+Space' }));
    const refused = await failure('mcpServers.importClaudeDesktop', {});
    expect(refused.code).toBe('invalid_params');
    expect(refused.message).toContain("cannot be a server's name");
    expect(refused.message).toContain('unknown property "extra"');
    expect(refused.message).not.toContain('url is required');

    await writeFile(file, JSON.stringify({ mcpServers: { everything }, globalShortcut: 'Ctrl+Space' }));
    const imported = await call('mcpServers.importClaudeDesktop', {});
    expect(imported.file).toBe(file);
    expect(imported.servers.map((server) => [server.name, server.state])).toEqual([['everything', 'connected']]);
  });
});

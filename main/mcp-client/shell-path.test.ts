import { chmod, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../../testing/cores/spawned-host.js';
import { startTestCore } from '../../testing/harness/test-core.js';
import { tempDirForTest } from '../../testing/harness/test-temp-dir.js';
import { findCommand, loginShellPath } from './shell-path.js';

async function script(folder: string, name: string, body: string): Promise<string> {
  const file = path.join(folder, name);
  await writeFile(file, `#!/bin/sh\n${body}\n`);
  await chmod(file, 0o755);
  return file;
}

describe('the login shell’s PATH', () => {
  it('comes first, then the app’s own, without repeats', async () => {
    const folder = await tempDirForTest();
    // A shell whose start-up files add a folder, as nvm or Homebrew do.
    const shell = await script(folder, 'fake-shell', "printf '__toolbelt_path__/opt/nvm/bin:/usr/bin__toolbelt_path__'");
    expect(await loginShellPath({ shell, inherited: '/usr/bin:/bin' })).toBe('/opt/nvm/bin:/usr/bin:/bin');
  });

  it('falls back to the app’s PATH when the shell hangs or fails', async () => {
    const folder = await tempDirForTest();
    const hanging = await script(folder, 'hanging-shell', 'sleep 30');
    expect(await loginShellPath({ shell: hanging, inherited: '/usr/bin', timeoutMs: 200 })).toBe('/usr/bin');
    expect(await loginShellPath({ shell: path.join(folder, 'no-such-shell'), inherited: '/usr/bin' })).toBe('/usr/bin');
  });

  it('finds executables only', async () => {
    const folder = await tempDirForTest();
    const tool = await script(folder, 'my-tool', 'true');
    await writeFile(path.join(folder, 'not-executable'), 'x');
    expect(findCommand('my-tool', `/nowhere:${folder}`)).toBe(tool);
    expect(findCommand('not-executable', folder)).toBeNull();
    expect(findCommand(tool, '')).toBe(tool);
  });

  it('is where an MCP server’s command is found, and the PATH the server gets', async () => {
    const bin = await tempDirForTest();
    const everything = path.join(PROJECT_ROOT, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js');
    // Only on the "login shell's" PATH, as npx installed through nvm would be.
    await script(bin, 'everything-mcp', `exec "${process.execPath}" "${everything}" stdio`);
    const { call } = await startTestCore({ shellPath: async () => `${bin}${path.delimiter}${process.env.PATH ?? ''}` });
    expect((await call('mcpServers.put', { name: 'everything', config: { command: 'everything-mcp' } })).state).toBe('connected');
    const { call: withoutShell } = await startTestCore({ shellPath: async () => process.env.PATH ?? '' });
    expect((await withoutShell('mcpServers.put', { name: 'everything', config: { command: 'everything-mcp' } })).error?.code).toBe('mcp_command_missing');
  });
});

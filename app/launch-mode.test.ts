import { describe, expect, it } from 'vitest';
import { mcpStdioArguments, mcpStdioCommand } from './launch-mode.js';

describe('how the desktop binary was started', () => {
  it('as the app, or as the stdio MCP server with its own options after the flag', () => {
    expect(mcpStdioArguments(['/opt/Toolbelt/toolbelt'])).toBeNull();
    expect(mcpStdioArguments(['/opt/Toolbelt/toolbelt', '--no-sandbox'])).toBeNull();
    expect(mcpStdioArguments(['/opt/Toolbelt/toolbelt', '--mcp-stdio', '--data-dir', '/home/a/.config/Toolbelt'])).toEqual(['--data-dir', '/home/a/.config/Toolbelt']);
    // In development Electron runs with the app's folder first.
    expect(mcpStdioArguments(['/usr/lib/electron/electron', '/work/toolbelt', '--mcp-stdio'])).toEqual([]);
  });

  it('gives other apps a command that starts it so, without the Node mode the app’s fuses close', () => {
    const packaged = mcpStdioCommand({ execPath: '/opt/Toolbelt/toolbelt', isPackaged: true, appPath: '/opt/Toolbelt/resources/app.asar', dataDir: '/home/a/.config/Toolbelt' });
    expect(packaged).toEqual({ command: '/opt/Toolbelt/toolbelt', args: ['--mcp-stdio', '--data-dir', '/home/a/.config/Toolbelt'] });
    expect(mcpStdioArguments([packaged.command, ...packaged.args])).toEqual(['--data-dir', '/home/a/.config/Toolbelt']);
    const dev = mcpStdioCommand({ execPath: '/usr/lib/electron/electron', isPackaged: false, appPath: '/work/toolbelt', dataDir: '/tmp/d' });
    expect(dev).toEqual({ command: '/usr/lib/electron/electron', args: ['/work/toolbelt', '--mcp-stdio', '--data-dir', '/tmp/d'] });
    expect(packaged).not.toHaveProperty('env');
  });
});

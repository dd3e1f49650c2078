import { describe, expect, it } from 'vitest';
import { openRequestOf } from './links.js';

describe('what a launch asks the desktop app to open', () => {
  it('finds toolbelt:// links and .mcpb files, never a flag', () => {
    expect(openRequestOf(['/opt/Toolbelt/toolbelt', '--no-sandbox', 'toolbelt://mcp/install?config=e30', '/home/a/Weather.MCPB', '--flag=x.mcpb'])).toEqual({
      links: ['toolbelt://mcp/install?config=e30'],
      bundles: ['/home/a/Weather.MCPB'],
    });
  });

  it('the second launch of Windows (its own path first, the link last) and a plain start', () => {
    expect(openRequestOf(['C:\\Toolbelt\\Toolbelt.exe', '--allow-file-access-from-files', 'TOOLBELT://chat/new?q=hi']).links).toEqual(['TOOLBELT://chat/new?q=hi']);
    expect(openRequestOf(['/usr/bin/toolbelt'])).toEqual({ links: [], bundles: [] });
  });
});

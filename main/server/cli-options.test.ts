import { describe, expect, it } from 'vitest';
import { parseServeOptions, UsageError } from './cli-options.js';
import { defaultDataDir } from './data-dir.js';

const defaults = { dataDir: '/home/me/.config/Toolbelt', rendererDir: '/app/out/renderer' };

describe('serve options', () => {
  it('defaults to a free port, a random token and the desktop data folder', () => {
    const options = parseServeOptions([], defaults);
    expect(options).toMatchObject({ port: 0, dataDir: defaults.dataDir, logLevel: 'info' });
    expect(options !== 'help' && options.token.length).toBeGreaterThanOrEqual(24);
  });

  it('takes --data-dir, --port and --token', () => {
    expect(parseServeOptions(['--data-dir', '/d', '--port', '8123', '--token', 'abcdefghijklmnop'], defaults)).toMatchObject({
      dataDir: '/d',
      port: 8123,
      token: 'abcdefghijklmnop',
    });
  });

  it('explains each bad value', () => {
    expect(() => parseServeOptions(['--port', '70000'], defaults)).toThrow(UsageError);
    expect(() => parseServeOptions(['--token', 'short'], defaults)).toThrow(/at least 16/);
    expect(() => parseServeOptions(['--token', 'has spaces in it!!'], defaults)).toThrow(/letters, digits/);
    expect(() => parseServeOptions(['--log-level', 'loud'], defaults)).toThrow(/log-level/);
    expect(() => parseServeOptions(['--colour'], defaults)).toThrow(UsageError);
  });

  it('shares the desktop app’s folder on each platform', () => {
    expect(defaultDataDir('Toolbelt', { XDG_CONFIG_HOME: '/x' }, 'linux')).toBe('/x/Toolbelt');
    expect(defaultDataDir('Toolbelt', { APPDATA: 'C:\\Users\\me\\AppData\\Roaming' }, 'win32')).toContain('Toolbelt');
    expect(defaultDataDir('Toolbelt', {}, 'darwin')).toMatch(/Library\/Application Support\/Toolbelt$/);
  });
});

import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDirForTest } from '../testing/harness/test-temp-dir.js';

const ROOT = path.resolve(import.meta.dirname, '..');

describe('npm run setup:electron', () => {
  it('without a network says so in one line with the next step, not a stack trace', async () => {
    const cache = await tempDirForTest();
    // A mirror on a closed loopback port: the download fails at once, as it does offline.
    const result = spawnSync(process.execPath, [path.join(ROOT, 'scripts/setup-electron.mjs')], {
      cwd: ROOT,
      encoding: 'utf8',
      env: { ...process.env, ELECTRON_MIRROR: 'http://127.0.0.1:9/', electron_config_cache: cache, ELECTRON_PATH: '' },
      timeout: 60_000,
    });
    const lines = `${result.stdout}${result.stderr}`.trim().split('\n');
    expect(lines).toHaveLength(1);
    if (existsSync(path.join(ROOT, 'node_modules/electron/dist/version'))) {
      // A developer who already downloaded it: nothing to fetch, and it says so.
      expect(result.status).toBe(0);
      expect(lines[0]).toMatch(/^Electron \d+\.\d+\.\d+ is ready/);
      return;
    }
    expect(result.status).toBe(1);
    expect(lines[0]).toMatch(/^Could not download Electron \d+\.\d+\.\d+: the download site could not be reached \(fetch failed\)\. .*ELECTRON_PATH/);
  });
});

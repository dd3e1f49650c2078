import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { startTestCore } from '../testing/test-core.js';
import { tempDirForTest } from '../testing/test-temp-dir.js';

describe('settings', () => {
  it('start with the shipped example hosts allowed and keep what is patched', async () => {
    const subject = await startTestCore();
    expect(await subject.call('settings.get', {})).toEqual({
      allowedHosts: ['geocoding-api.open-meteo.com', 'api.open-meteo.com'],
      readableFolders: [],
      theme: 'system',
    });
    await subject.call('settings.patch', { allowedHosts: ['api.example.com', '*.example.org', 'localhost:8080'] });
    const reopened = await subject.reopen();
    expect((await reopened.call('settings.get', {})).allowedHosts).toEqual(['api.example.com', '*.example.org', 'localhost:8080']);
  });

  it('reject malformed hosts', async () => {
    const subject = await startTestCore();
    for (const host of ['https://api.example.com', 'API.example.com', 'a b', 'example.com/path', '*']) {
      expect((await subject.failure('settings.patch', { allowedHosts: [host] })).code, host).toBe('invalid_params');
    }
  });

  it('run on defaults when settings.json is broken, and never write over it', async () => {
    const dataDir = await tempDirForTest();
    await writeFile(path.join(dataDir, 'settings.json'), '{ broken');
    const subject = await startTestCore({ dataDir });
    expect((await subject.call('settings.get', {})).theme).toBe('system');
    expect((await subject.failure('settings.patch', { theme: 'dark' })).code).toBe('file_invalid');
    expect(await readFile(path.join(dataDir, 'settings.json'), 'utf8')).toBe('{ broken');
  });
});

import { readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { startTestCore } from '../../testing/harness/test-core.js';
import { tempDirForTest } from '../../testing/harness/test-temp-dir.js';

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

describe('entries a person adds', () => {
  it('refuse a port past 65535, and folders that are relative, missing or files, each with a sentence', async () => {
    const subject = await startTestCore();
    const folder = await tempDirForTest();
    const file = path.join(folder, 'notes.txt');
    await writeFile(file, 'x');
    const port = await subject.failure('settings.patch', { allowedHosts: ['localhost:99999'] });
    expect(port).toMatchObject({ code: 'invalid_params', message: 'localhost:99999 has port 99999; a port is a number from 1 to 65535.' });
    expect((await subject.failure('settings.patch', { allowedHosts: ['localhost:0'] })).code).toBe('invalid_params');
    await subject.call('settings.patch', { allowedHosts: ['localhost:65535'] });

    const relative = await subject.failure('settings.patch', { readableFolders: ['notes'] });
    expect(relative.message).toMatch(/^"notes" is not a full path/);
    expect((await subject.failure('settings.patch', { readableFolders: [path.join(folder, 'missing')] })).message).toBe(`${path.join(folder, 'missing')} does not exist.`);
    expect((await subject.failure('settings.patch', { readableFolders: [file] })).message).toBe(`${file} is a file, not a folder.`);
    await subject.call('settings.patch', { readableFolders: [folder] });

    // A folder that vanished later does not block changing the list.
    const gone = await tempDirForTest();
    await subject.call('settings.patch', { readableFolders: [folder, gone] });
    await rm(gone, { recursive: true });
    expect((await subject.call('settings.patch', { readableFolders: [gone] })).readableFolders).toEqual([gone]);
  });
});

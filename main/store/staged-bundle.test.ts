import { mkdir, readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDirForTest } from '../../testing/harness/test-temp-dir.js';
import { writeStagedBundle } from './staged-bundle.js';

describe('a new bundle written whole', () => {
  it('appears with every file once all are written, many at a time', async () => {
    const root = await tempDirForTest();
    const target = path.join(root, 'bundles', 'b1');
    const files = Array.from({ length: 100 }, (_, n) => ({ relativePath: path.join('tools', `t${n}.json`), text: `{"n":${n}}` }));
    await writeStagedBundle(root, target, [{ relativePath: 'bundle.json', text: '{}' }, ...files]);
    expect((await readdir(path.join(target, 'tools'))).length).toBe(100);
    expect(await readFile(path.join(target, 'tools', 't99.json'), 'utf8')).toBe('{"n":99}');
    expect(await readdir(path.join(root, 'staging'))).toEqual([]);
  });

  it('does not appear at all when one file cannot be written, and leaves no staging behind', async () => {
    const root = await tempDirForTest();
    await mkdir(path.join(root, 'bundles'), { recursive: true });
    const target = path.join(root, 'bundles', 'b2');
    const files = Array.from({ length: 50 }, (_, n) => ({ relativePath: path.join('tools', `t${n}.json`), text: '{}' }));
    // A folder that does not exist: that write fails while others go on.
    files.splice(20, 0, { relativePath: path.join('nowhere', 'x.json'), text: '{}' });
    await expect(writeStagedBundle(root, target, files)).rejects.toThrow();
    expect(await readdir(path.join(root, 'bundles'))).toEqual([]);
    expect(await readdir(path.join(root, 'staging'))).toEqual([]);
  });
});

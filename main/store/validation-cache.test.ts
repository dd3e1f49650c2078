import { access, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { seedBundle } from '../../testing/data/seed.js';
import { startTestCore } from '../../testing/harness/test-core.js';
import { tempDirForTest } from '../../testing/harness/test-temp-dir.js';

describe('validation cache', () => {
  it('remembers valid files, and an edited file is checked in full again', async () => {
    const dataDir = await tempDirForTest();
    const seeded = await seedBundle(dataDir, { tools: [{ slug: 'kept' }, { slug: 'edited' }] });
    const first = await startTestCore({ dataDir });
    await first.core.close();
    const cacheFile = path.join(dataDir, 'cache', 'validated-tools.json');
    const cache = JSON.parse(await readFile(cacheFile, 'utf8')) as { tools: Record<string, string> };
    expect(Object.keys(cache.tools)).toEqual(expect.arrayContaining(seeded.tools.map((tool) => tool.toolID)));

    const edited = path.join(dataDir, 'bundles', seeded.bundleID, 'tools', `${seeded.tools[1]!.toolID}.json`);
    await writeFile(edited, (await readFile(edited, 'utf8')).replace('"type": "http"', '"type": "smoke-signal"'));
    const second = await startTestCore({ dataDir });
    const listed = await second.call('tools.list', { bundleIDs: [seeded.bundleID], includeDisabled: true });
    expect(Object.fromEntries(listed.tools.map((tool) => [tool.slug, tool.status]))).toEqual({ kept: 'valid', edited: 'invalid' });
  });

  it('ignores a cache written under other rules', async () => {
    const dataDir = await tempDirForTest();
    const seeded = await seedBundle(dataDir, { tools: [{ slug: 'broken' }] });
    const file = path.join(dataDir, 'bundles', seeded.bundleID, 'tools', `${seeded.tools[0]!.toolID}.json`);
    await writeFile(file, (await readFile(file, 'utf8')).replace('"type": "object"', '"type": "nonsense"'));
    const { ValidationCache } = await import('./validation-cache.js');
    const { mkdir } = await import('node:fs/promises');
    await mkdir(path.join(dataDir, 'cache'));
    const stale = { fingerprint: 'rules-of-an-older-toolbelt', tools: { [seeded.tools[0]!.toolID]: ValidationCache.digest(await readFile(file, 'utf8')) } };
    await writeFile(path.join(dataDir, 'cache', 'validated-tools.json'), JSON.stringify(stale));
    const subject = await startTestCore({ dataDir });
    const [tool] = (await subject.call('tools.list', { bundleIDs: [seeded.bundleID], includeDisabled: true })).tools;
    expect(tool?.status).toBe('invalid');
    await expect(access(path.join(dataDir, 'cache', 'validated-tools.json'))).resolves.toBeUndefined();
  });
});

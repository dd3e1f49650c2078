import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createAjv } from '../common/validation.js';
import { seedBundle } from '../../testing/data/seed.js';
import { tempDirForTest } from '../../testing/harness/test-temp-dir.js';
import { createDocumentValidator } from './document-validation.js';
import { createLayout } from './layout.js';
import { readToolRecord } from './records.js';
import { ValidationCache } from './validation-cache.js';

describe('reading a tool file again', () => {
  it('hands back what memory holds when the file has the same text (a bundle this process wrote), and reads a changed one anew', async () => {
    const dataDir = await tempDirForTest('toolbelt-records-');
    const { bundleID, tools } = await seedBundle(dataDir, { tools: [{ slug: 'weather', displayName: 'Weather' }] });
    const toolID = tools[0]!.toolID;
    const layout = createLayout(dataDir);
    const validator = createDocumentValidator(createAjv({ strict: false }));
    const cache = new ValidationCache(path.join(dataDir, 'validation-cache.json'), dataDir);
    const first = await readToolRecord(layout, validator, bundleID, toolID, cache);
    expect(first).toMatchObject({ kind: 'valid', tool: { displayName: 'Weather' } });

    // The watcher's re-read of an unchanged file: nothing parsed, the same record (no second copy of the tool).
    expect(await readToolRecord(layout, validator, bundleID, toolID, cache, first!)).toBe(first);

    // Another program changed it: read, checked and new.
    const file = layout.toolFile(bundleID, toolID);
    await writeFile(file, (await readFile(file, 'utf8')).replace('"Weather"', '"Weather now"'));
    const changed = await readToolRecord(layout, validator, bundleID, toolID, cache, first!);
    expect(changed).not.toBe(first);
    expect(changed).toMatchObject({ kind: 'valid', tool: { displayName: 'Weather now' } });

    // Broken on disk: said so, whatever memory held.
    await writeFile(file, '{"schemaVersion": ');
    expect(await readToolRecord(layout, validator, bundleID, toolID, cache, changed!)).toMatchObject({ kind: 'invalid' });
  });
});

describe('the data folder layout', () => {
  it('names the same files path.join would, from a relative data folder too, and refuses an ID that is not a UUIDv7', () => {
    const bundleID = '019a0000-0000-7000-8000-000000000001';
    const toolID = '019a0000-0000-7000-8000-000000000002';
    for (const dataDir of ['relative/./data/', path.join('..', 'elsewhere', 'x', '..', 'data')]) {
      const layout = createLayout(dataDir);
      const bundles = path.join(path.resolve(dataDir), 'bundles');
      expect(layout.bundleDir(bundleID)).toBe(path.join(bundles, bundleID));
      expect(layout.bundleFile(bundleID)).toBe(path.join(bundles, bundleID, 'bundle.json'));
      expect(layout.toolsDir(bundleID)).toBe(path.join(bundles, bundleID, 'tools'));
      expect(layout.toolFile(bundleID, toolID)).toBe(path.join(bundles, bundleID, 'tools', `${toolID}.json`));
      expect(layout.usageFile(toolID)).toBe(path.join(path.resolve(dataDir), 'usage', `${toolID}.json`));
    }
    expect(() => createLayout('data').toolFile(bundleID, '../../etc/passwd')).toThrow(/not a UUIDv7/);
  });
});

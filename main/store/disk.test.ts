import { access, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import type { CoreEvent } from '../../shared/events.js';
import { TOOL_FILE_KEY_ORDER } from '../../shared/schemas/tool.js';
import { httpTool, newID } from '../../testing/data/fixtures.js';
import { seedBundle } from '../../testing/data/seed.js';
import { manualClock, startTestCore } from '../../testing/harness/test-core.js';
import { tempDirForTest } from '../../testing/harness/test-temp-dir.js';

const DAY = 24 * 60 * 60 * 1000;
const exists = (file: string) => access(file).then(() => true, () => false);

describe('files on disk', () => {
  it('are pretty-printed JSON with a stable key order, LF endings and a final newline', async () => {
    const { call, dataDir } = await startTestCore();
    const bundleID = newID();
    await call('bundles.put', { bundleID, slug: 'b', displayName: 'B' });
    const tool = await call('tools.put', {
      bundleID,
      toolSlug: 'weather',
      version: 'v1',
      // Keys in a scrambled order, and a schema whose property order matters for forms.
      tool: { impl: { urlTemplate: 'https://api.example.com/', method: 'GET' }, type: 'http', displayName: 'W', argSchema: { type: 'object', properties: { zeta: { type: 'string' }, alpha: { type: 'string' } } } },
    });
    const file = path.join(dataDir, 'bundles', bundleID, 'tools', `${tool.toolID}.json`);
    const text = await readFile(file, 'utf8');
    expect(text.endsWith('}\n')).toBe(true);
    expect(text).not.toContain('\r');
    expect(text).toContain('\n  "schemaVersion": "1",\n');
    const keys = Object.keys(JSON.parse(text) as object);
    expect(keys).toEqual(TOOL_FILE_KEY_ORDER.filter((key) => keys.includes(key)));
    expect(Object.keys((JSON.parse(text) as { argSchema: { properties: object } }).argSchema.properties)).toEqual(['zeta', 'alpha']);

    await call('tools.patch', { bundleID, toolSlug: 'weather', version: 'v1', isEnabled: false });
    await call('tools.patch', { bundleID, toolSlug: 'weather', version: 'v1', isEnabled: true });
    expect(await readFile(file, 'utf8')).toBe(text);
  });

  it('a corrupt tool.json is listed as invalid with its reason, never rewritten, and the rest works', async () => {
    const dataDir = await tempDirForTest();
    const seeded = await seedBundle(dataDir, { tools: [{ slug: 'good' }, { slug: 'broken', displayName: 'Broken one' }] });
    const brokenFile = path.join(dataDir, 'bundles', seeded.bundleID, 'tools', `${seeded.tools[1]!.toolID}.json`);
    const brokenText = (await readFile(brokenFile, 'utf8')).replace('"type": "http"', '"type": "carrier-pigeon"');
    await writeFile(brokenFile, brokenText);
    const emptyID = newID();
    const emptyFile = path.join(dataDir, 'bundles', seeded.bundleID, 'tools', `${emptyID}.json`);
    await writeFile(emptyFile, '');

    const { call, failure } = await startTestCore({ dataDir });
    const listed = await call('tools.list', { bundleIDs: [seeded.bundleID], includeDisabled: true });
    const broken = listed.tools.find((tool) => tool.toolID === seeded.tools[1]!.toolID);
    expect(broken).toMatchObject({ status: 'invalid', slug: 'broken', displayName: 'Broken one', available: false, file: brokenFile });
    expect(broken?.status === 'invalid' && broken.invalidReason).toContain('/type');
    expect(listed.tools.find((tool) => tool.toolID === emptyID)).toMatchObject({ status: 'invalid', invalidReason: 'the file is empty' });
    expect((await call('tools.list', { bundleIDs: [seeded.bundleID] })).tools.map((tool) => tool.slug)).toEqual(['good']);

    expect((await call('tools.get', { bundleID: seeded.bundleID, toolSlug: 'broken', version: 'v1' })).status).toBe('invalid');
    expect((await failure('tools.patch', { bundleID: seeded.bundleID, toolSlug: 'broken', version: 'v1', isEnabled: false })).code).toBe('file_invalid');
    // Its <slug, version> is still taken: a new file would silently shadow it once fixed.
    expect((await failure('tools.put', { bundleID: seeded.bundleID, toolSlug: 'broken', version: 'v1', tool: httpTool() })).code).toBe('conflict');
    await call('tools.put', { bundleID: seeded.bundleID, toolSlug: 'fresh', version: 'v1', tool: httpTool() });

    expect(await readFile(brokenFile, 'utf8')).toBe(brokenText);
    expect(await readFile(emptyFile, 'utf8')).toBe('');
  });

  it('a tool file whose ids do not match its place is invalid', async () => {
    const dataDir = await tempDirForTest();
    const seeded = await seedBundle(dataDir, { tools: [{ slug: 'moved' }] });
    const original = path.join(dataDir, 'bundles', seeded.bundleID, 'tools', `${seeded.tools[0]!.toolID}.json`);
    const renamedID = newID();
    await writeFile(path.join(path.dirname(original), `${renamedID}.json`), await readFile(original));
    await rm(original);
    const { call } = await startTestCore({ dataDir });
    const [entry] = (await call('tools.list', { bundleIDs: [seeded.bundleID], includeDisabled: true })).tools;
    expect(entry).toMatchObject({ status: 'invalid', toolID: renamedID });
    expect(entry?.status === 'invalid' && entry.invalidReason).toContain('does not match the file name');
  });

  it('an invalid bundle.json is reported, and its tools are listed as unavailable', async () => {
    const dataDir = await tempDirForTest();
    const seeded = await seedBundle(dataDir, { tools: [{ slug: 'orphan' }] });
    await writeFile(path.join(dataDir, 'bundles', seeded.bundleID, 'bundle.json'), '{"slug": 12}');
    const { call } = await startTestCore({ dataDir });
    const bundle = (await call('bundles.list', { includeDisabled: true, bundleIDs: [seeded.bundleID] })).bundles[0];
    expect(bundle).toMatchObject({ status: 'invalid', bundleID: seeded.bundleID });
    const tool = (await call('tools.list', { includeDisabled: true, bundleIDs: [seeded.bundleID] })).tools[0];
    expect(tool).toMatchObject({ status: 'valid', slug: 'orphan', available: false });
    expect((await call('tools.list', { bundleIDs: [seeded.bundleID] })).tools).toEqual([]);
  });
});

describe('changes made by other programs', () => {
  it('are picked up without a restart and announced as store.changed from disk', async () => {
    const dataDir = await tempDirForTest();
    const seeded = await seedBundle(dataDir, { tools: [{ slug: 'edited', displayName: 'Before' }] });
    const { call, core } = await startTestCore({ dataDir, watchFiles: true });
    const events: CoreEvent[] = [];
    core.events.subscribe((event) => events.push(event));
    const nextDiskEvent = () =>
      new Promise<void>((resolve) => {
        const off = core.events.subscribe((event) => {
          if (event.type === 'store.changed' && event.source === 'disk') {
            off();
            resolve();
          }
        });
      });

    const file = path.join(dataDir, 'bundles', seeded.bundleID, 'tools', `${seeded.tools[0]!.toolID}.json`);
    let changed = nextDiskEvent();
    await writeFile(file, (await readFile(file, 'utf8')).replace('"Before"', '"After"'));
    await changed;
    expect((await call('tools.get', { bundleID: seeded.bundleID, toolSlug: 'edited', version: 'v1' })).displayName).toBe('After');

    changed = nextDiskEvent();
    const added = await seedBundle(dataDir, { tools: [{ slug: 'pulled' }] });
    await changed;
    await expect(call('tools.get', { bundleID: added.bundleID, toolSlug: 'pulled', version: 'v1' })).resolves.toMatchObject({ status: 'valid' });

    changed = nextDiskEvent();
    await rm(file);
    await changed;
    expect((await call('tools.list', { bundleIDs: [seeded.bundleID], includeDisabled: true })).tools).toEqual([]);
    expect(events.every((event) => event.type !== 'store.changed' || event.bundleIDs.length > 0)).toBe(true);
  });

  it('our own writes are announced once, as api changes', async () => {
    const { call, core, dataDir } = await startTestCore({ watchFiles: true });
    const events: CoreEvent[] = [];
    core.events.subscribe((event) => events.push(event));
    const bundleID = newID();
    await call('bundles.put', { bundleID, slug: 'b', displayName: 'B' });
    await call('tools.put', { bundleID, toolSlug: 't', version: 'v1', tool: httpTool() });
    // Then a bundle written by another program: once the watcher has told of it, it has told of our writes too.
    const other = await seedBundle(dataDir, { tools: [{ slug: 'by-hand' }] });
    const sources = () => events.filter((event) => event.type === 'store.changed').map((event) => event.type === 'store.changed' && event.source);
    await vi.waitFor(() => expect(sources()).toContain('disk'), { timeout: 5_000, interval: 10 });
    expect(sources()).toEqual(['api', 'api', 'disk']);
    expect(events.findLast((event) => event.type === 'store.changed')).toMatchObject({ bundleIDs: [other.bundleID] });
  });
});

describe('the reaper', () => {
  it('removes a bundle folder two days after soft delete, only once it has no tools', async () => {
    const clock = manualClock();
    const { call, core, dataDir } = await startTestCore({ clock });
    const bundleID = newID();
    const folder = path.join(dataDir, 'bundles', bundleID);
    await call('bundles.put', { bundleID, slug: 'b', displayName: 'B' });
    await call('tools.put', { bundleID, toolSlug: 't', version: 'v1', tool: httpTool() });
    await call('bundles.delete', { bundleID });

    clock.advance(3 * DAY);
    expect(await core.store.reaper.reap()).toEqual([]);
    expect(await exists(folder)).toBe(true);

    await call('tools.delete', { bundleID, toolSlug: 't', version: 'v1' });
    expect(await core.store.reaper.reap()).toEqual([bundleID]);
    expect(await exists(folder)).toBe(false);
  });

  it('waits the full two days', async () => {
    const clock = manualClock();
    const { call, core, dataDir } = await startTestCore({ clock });
    const bundleID = newID();
    await call('bundles.put', { bundleID, slug: 'b', displayName: 'B' });
    await call('bundles.delete', { bundleID });
    clock.advance(2 * DAY - 1_000);
    expect(await core.store.reaper.reap()).toEqual([]);
    clock.advance(2_000);
    expect(await core.store.reaper.reap()).toEqual([bundleID]);
    expect(await exists(path.join(dataDir, 'bundles', bundleID))).toBe(false);
  });

  it('never removes a folder that still holds a file, even an invalid one', async () => {
    const clock = manualClock();
    const { call, core, dataDir } = await startTestCore({ clock });
    const bundleID = newID();
    await call('bundles.put', { bundleID, slug: 'b', displayName: 'B' });
    await call('bundles.delete', { bundleID });
    await mkdir(path.join(dataDir, 'bundles', bundleID, 'tools'), { recursive: true });
    await writeFile(path.join(dataDir, 'bundles', bundleID, 'tools', `${newID()}.json`), 'not json');
    clock.advance(10 * DAY);
    expect(await core.store.reaper.reap()).toEqual([]);
    expect(await exists(path.join(dataDir, 'bundles', bundleID))).toBe(true);
  });
});

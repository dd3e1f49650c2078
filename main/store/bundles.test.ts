import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { httpTool, newID } from '../../testing/data/fixtures.js';
import { manualClock, startTestCore } from '../../testing/harness/test-core.js';

describe('bundles', () => {
  it('puts a new bundle with a client-chosen id and reads it back', async () => {
    const clock = manualClock();
    const { call, dataDir } = await startTestCore({ clock });
    const bundleID = newID();
    const bundle = await call('bundles.put', { bundleID, slug: 'my-tools', displayName: 'My tools' });
    expect(bundle).toMatchObject({
      bundleID,
      slug: 'my-tools',
      displayName: 'My tools',
      description: '',
      isEnabled: true,
      isBuiltIn: false,
      createdAt: '2026-03-01T10:00:00.000Z',
      modifiedAt: '2026-03-01T10:00:00.000Z',
      toolCount: 0,
    });
    const onDisk = JSON.parse(await readFile(path.join(dataDir, 'bundles', bundleID, 'bundle.json'), 'utf8')) as object;
    expect(onDisk).toMatchObject({ schemaVersion: '1', bundleID, slug: 'my-tools' });
  });

  it('marks a first put as created and a second as a replacement', async () => {
    const { core } = await startTestCore();
    const bundleID = newID();
    let created = 0;
    const context = { transport: 'internal' as const, markCreated: () => created++ };
    await core.dispatcher.call('bundles.put', { bundleID, slug: 'a', displayName: 'A' }, context);
    await core.dispatcher.call('bundles.put', { bundleID, slug: 'a', displayName: 'A2' }, context);
    expect(created).toBe(1);
  });

  it('keeps createdAt forever and moves modifiedAt only on structural changes', async () => {
    const clock = manualClock();
    const { call } = await startTestCore({ clock });
    const bundleID = newID();
    await call('bundles.put', { bundleID, slug: 'a', displayName: 'A' });
    clock.advance(60_000);
    const toggled = await call('bundles.patch', { bundleID, isEnabled: false });
    expect(toggled.modifiedAt).toBe('2026-03-01T10:00:00.000Z');
    expect(toggled.isEnabled).toBe(false);
    clock.advance(60_000);
    const sameAgain = await call('bundles.put', { bundleID, slug: 'a', displayName: 'A', isEnabled: true });
    expect(sameAgain.modifiedAt).toBe('2026-03-01T10:00:00.000Z');
    const renamed = await call('bundles.put', { bundleID, slug: 'a', displayName: 'Renamed' });
    expect(renamed.createdAt).toBe('2026-03-01T10:00:00.000Z');
    expect(renamed.modifiedAt).toBe('2026-03-01T10:02:00.000Z');
  });

  it('soft-deletes: hides the bundle and its tools, and a put restores both', async () => {
    const { call, failure } = await startTestCore();
    const bundleID = newID();
    await call('bundles.put', { bundleID, slug: 'a', displayName: 'A' });
    await call('tools.put', { bundleID, toolSlug: 'weather', version: 'v1', tool: httpTool() });
    expect(await call('bundles.delete', { bundleID })).toBeNull();

    const listed = await call('bundles.list', { includeDisabled: true });
    expect(listed.bundles.map((bundle) => bundle.bundleID)).not.toContain(bundleID);
    const found = await call('tools.search', { q: 'weather', includeDisabled: true });
    expect(found.tools.filter((tool) => tool.bundleID === bundleID)).toEqual([]);
    expect((await failure('tools.get', { bundleID, toolSlug: 'weather', version: 'v1' })).code).toBe('not_found');
    expect((await failure('bundles.delete', { bundleID })).code).toBe('not_found');
    expect((await failure('bundles.patch', { bundleID, isEnabled: true })).code).toBe('not_found');

    const restored = await call('bundles.put', { bundleID, slug: 'a', displayName: 'A' });
    expect(restored).not.toHaveProperty('softDeletedAt');
    expect((await call('tools.get', { bundleID, toolSlug: 'weather', version: 'v1' })).status).toBe('valid');
  });

  it('answers not_found for bundles that do not exist', async () => {
    const { failure } = await startTestCore();
    expect((await failure('bundles.patch', { bundleID: newID(), isEnabled: false })).code).toBe('not_found');
    expect((await failure('bundles.delete', { bundleID: newID() })).code).toBe('not_found');
  });

  it('rejects bad ids and slugs with invalid_params before touching disk', async () => {
    const { failure } = await startTestCore();
    for (const params of [
      { bundleID: 'not-a-uuid', slug: 'a', displayName: 'A' },
      { bundleID: '0190a1b2-c3d4-4e5f-8a6b-7c8d9e0f1a2b', slug: 'a', displayName: 'A' }, // a v4, not a v7
      { bundleID: newID(), slug: 'has space', displayName: 'A' },
      { bundleID: newID(), slug: 'under_score', displayName: 'A' },
      { bundleID: newID(), slug: 'a', displayName: '' },
      { bundleID: newID(), slug: 'a', displayName: 'A', isBuiltIn: true },
    ]) {
      expect((await failure('bundles.put', params)).code, JSON.stringify(params)).toBe('invalid_params');
    }
  });

  it('lists enabled bundles, and disabled ones only when asked', async () => {
    const { call } = await startTestCore();
    const on = newID();
    const off = newID();
    await call('bundles.put', { bundleID: on, slug: 'on', displayName: 'On' });
    await call('bundles.put', { bundleID: off, slug: 'off', displayName: 'Off', isEnabled: false });
    const ids = async (includeDisabled: boolean) =>
      (await call('bundles.list', { includeDisabled })).bundles.map((bundle) => bundle.bundleID);
    expect(await ids(false)).toContain(on);
    expect(await ids(false)).not.toContain(off);
    expect(await ids(true)).toEqual(expect.arrayContaining([on, off]));
    const filtered = await call('bundles.list', { bundleIDs: [off], includeDisabled: true });
    expect(filtered.bundles.map((bundle) => bundle.bundleID)).toEqual([off]);
  });

  it('pages bundles with built-ins first, then by name', async () => {
    const { call } = await startTestCore();
    for (const name of ['Zeta', 'alpha', 'Mid']) await call('bundles.put', { bundleID: newID(), slug: 's', displayName: name });
    const seen: string[] = [];
    let pageToken: string | undefined;
    do {
      const page = await call('bundles.list', { pageSize: 2, ...(pageToken ? { pageToken } : {}) });
      seen.push(...page.bundles.map((bundle) => (bundle.status === 'valid' ? bundle.displayName : '?')));
      pageToken = page.nextPageToken;
    } while (pageToken);
    expect(seen).toEqual(['Core', 'Weather (Open-Meteo)', 'alpha', 'Mid', 'Zeta']);
  });
});

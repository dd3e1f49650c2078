import { lstat, mkdir, readdir, readFile, rename, stat, symlink, utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { CORE_BUNDLE, httpTool, newID } from '../../testing/data/fixtures.js';
import { seedBundle } from '../../testing/data/seed.js';
import { manualClock, startTestCore } from '../../testing/harness/test-core.js';
import { tempDirForTest } from '../../testing/harness/test-temp-dir.js';

const DAY = 24 * 60 * 60 * 1000;
const exists = (file: string) => stat(file).then(() => true, () => false);

describe('links in the data folder', () => {
  it('a bundle.json that is a link is listed as invalid, and its target is never written', async () => {
    const dataDir = await tempDirForTest();
    const outside = await tempDirForTest();
    const seeded = await seedBundle(dataDir, { tools: [{ slug: 't' }] });
    const bundleFile = path.join(dataDir, 'bundles', seeded.bundleID, 'bundle.json');
    const target = path.join(outside, 'bundle.json');
    await rename(bundleFile, target);
    await symlink(target, bundleFile);
    const targetText = await readFile(target, 'utf8');

    const { call, failure } = await startTestCore({ dataDir });
    const [entry] = (await call('bundles.list', { includeDisabled: true, bundleIDs: [seeded.bundleID] })).bundles;
    expect(entry).toMatchObject({ status: 'invalid', invalidReason: expect.stringContaining('symbolic link') as unknown });
    expect((await failure('bundles.patch', { bundleID: seeded.bundleID, isEnabled: false })).code).toBe('file_invalid');
    expect((await failure('bundles.put', { bundleID: seeded.bundleID, slug: 'taken', displayName: 'Taken' })).code).toBe('storage_failed');
    expect(await readFile(target, 'utf8')).toBe(targetText);
    expect((await lstat(bundleFile)).isSymbolicLink()).toBe(true);
  });

  it('a bundle folder that links outside the data folder is never written into', async () => {
    const dataDir = await tempDirForTest();
    const outside = await tempDirForTest();
    const bundleID = newID();
    await mkdir(path.join(dataDir, 'bundles'), { recursive: true });
    await symlink(outside, path.join(dataDir, 'bundles', bundleID));
    const { failure } = await startTestCore({ dataDir });
    const refused = await failure('bundles.put', { bundleID, slug: 'escape', displayName: 'Escape' });
    expect(refused).toMatchObject({ code: 'storage_failed', message: expect.stringContaining('symbolic link (ELOOP)') as unknown });
    expect(await readdir(outside)).toEqual(['tools']);
    expect(await readdir(path.join(outside, 'tools'))).toEqual([]);
  });

  it('a tool file that is a link is listed as invalid', async () => {
    const dataDir = await tempDirForTest();
    const outside = await tempDirForTest();
    const seeded = await seedBundle(dataDir, { tools: [{ slug: 'linked' }] });
    const toolFile = path.join(dataDir, 'bundles', seeded.bundleID, 'tools', `${seeded.tools[0]!.toolID}.json`);
    await rename(toolFile, path.join(outside, 'tool.json'));
    await symlink(path.join(outside, 'tool.json'), toolFile);
    const { call } = await startTestCore({ dataDir });
    const [tool] = (await call('tools.list', { includeDisabled: true, bundleIDs: [seeded.bundleID] })).tools;
    expect(tool).toMatchObject({ status: 'invalid', invalidReason: expect.stringContaining('symbolic link') as unknown });
  });
});

describe('what the reaper and Remove may delete', () => {
  it('keeps a deleted bundle whose folder holds files Toolbelt did not write, lists it with the reason, and Remove works once they are gone', async () => {
    const clock = manualClock();
    const { call, failure, core, dataDir } = await startTestCore({ clock });
    const bundleID = newID();
    const folder = path.join(dataDir, 'bundles', bundleID);
    await call('bundles.put', { bundleID, slug: 'b', displayName: 'Mine' });
    await writeFile(path.join(folder, 'README.md'), '# my notes');
    await writeFile(path.join(folder, 'tools', 'notes.json'), '{}');
    await call('bundles.delete', { bundleID });
    clock.advance(3 * DAY);

    expect(await core.store.reaper.reap()).toEqual([]);
    expect(await readFile(path.join(folder, 'README.md'), 'utf8')).toBe('# my notes');
    const [entry] = (await call('bundles.list', { includeDisabled: true, bundleIDs: [bundleID] })).bundles;
    expect(entry).toMatchObject({
      status: 'invalid',
      displayName: 'Mine',
      removable: true,
      invalidReason: expect.stringMatching(/^Deleted, but its folder was kept: it holds files Toolbelt did not write \((README\.md, tools\/notes\.json|tools\/notes\.json, README\.md)\)/) as unknown,
    });
    const refused = await failure('bundles.removeFolder', { bundleID });
    expect(refused).toMatchObject({ code: 'conflict', message: expect.stringContaining('README.md') as unknown });
    expect(await exists(folder)).toBe(true);

    await rename(path.join(folder, 'README.md'), path.join(dataDir, 'README-kept.md'));
    await rename(path.join(folder, 'tools', 'notes.json'), path.join(dataDir, 'notes-kept.json'));
    await call('bundles.removeFolder', { bundleID });
    expect(await exists(folder)).toBe(false);
    expect((await call('bundles.list', { includeDisabled: true, bundleIDs: [bundleID] })).bundles).toEqual([]);
  });

  it('a half-created bundle folder (no bundle.json) is listed with Remove; Remove takes only our own files', async () => {
    const dataDir = await tempDirForTest();
    const half = newID();
    const withNotes = newID();
    await mkdir(path.join(dataDir, 'bundles', half, 'tools'), { recursive: true });
    await writeFile(path.join(dataDir, 'bundles', half, 'bundle.json.3141592653'), '{"schema');
    await mkdir(path.join(dataDir, 'bundles', withNotes, 'tools'), { recursive: true });
    await writeFile(path.join(dataDir, 'bundles', withNotes, 'notes.txt'), 'mine');
    const { call, failure } = await startTestCore({ dataDir });

    const listed = (await call('bundles.list', { includeDisabled: true, bundleIDs: [half, withNotes] })).bundles;
    expect(listed).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ bundleID: half, status: 'invalid', removable: true, invalidReason: expect.stringContaining('bundle.json is missing') as unknown }),
        expect.objectContaining({ bundleID: withNotes, status: 'invalid', removable: true }),
      ]),
    );
    await call('bundles.removeFolder', { bundleID: half });
    expect(await exists(path.join(dataDir, 'bundles', half))).toBe(false);
    expect((await failure('bundles.removeFolder', { bundleID: withNotes })).message).toContain('notes.txt');
    expect(await readFile(path.join(dataDir, 'bundles', withNotes, 'notes.txt'), 'utf8')).toBe('mine');
  });

  it('Remove refuses a working bundle and one whose bundle.json is there but broken', async () => {
    const dataDir = await tempDirForTest();
    const working = await seedBundle(dataDir, { tools: [] });
    const broken = await seedBundle(dataDir, { tools: [] });
    await writeFile(path.join(dataDir, 'bundles', broken.bundleID, 'bundle.json'), '{ not json');
    const { failure } = await startTestCore({ dataDir });
    expect((await failure('bundles.removeFolder', { bundleID: working.bundleID })).message).toContain('delete it first');
    expect((await failure('bundles.removeFolder', { bundleID: broken.bundleID })).message).toContain('is there but invalid');
    expect(await readFile(path.join(dataDir, 'bundles', broken.bundleID, 'bundle.json'), 'utf8')).toBe('{ not json');
  });
});

describe('files in a tools folder that are not tool files', () => {
  it('are listed as invalid with the reason instead of being invisible', async () => {
    const dataDir = await tempDirForTest();
    const seeded = await seedBundle(dataDir, { tools: [{ slug: 'real' }] });
    const toolsDir = path.join(dataDir, 'bundles', seeded.bundleID, 'tools');
    await writeFile(path.join(toolsDir, 'notes.json'), '{"slug": "fake"}');
    await mkdir(path.join(toolsDir, `${newID()}.json`));
    await writeFile(path.join(toolsDir, '.DS_Store'), '');
    const { call } = await startTestCore({ dataDir });
    const tools = (await call('tools.list', { includeDisabled: true, bundleIDs: [seeded.bundleID] })).tools;
    expect(tools).toHaveLength(3);
    expect(tools).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ status: 'valid', slug: 'real' }),
        expect.objectContaining({ status: 'invalid', displayName: 'notes.json', invalidReason: expect.stringContaining('not a tool file name') as unknown }),
        expect.objectContaining({ status: 'invalid', invalidReason: 'a folder is where this tool file should be' }),
      ]),
    );
    // A stray is not addressable as a tool, so it takes no <slug, version> away.
    await call('tools.put', { bundleID: seeded.bundleID, toolSlug: 'fake', version: 'v1', tool: httpTool() });
  });
});

describe('after a crash mid-write', () => {
  it('stale temporaries of our atomic writes are removed at start; fresh ones and other files stay', async () => {
    const dataDir = await tempDirForTest();
    const seeded = await seedBundle(dataDir, { tools: [{ slug: 'real' }] });
    const toolsDir = path.join(dataDir, 'bundles', seeded.bundleID, 'tools');
    await mkdir(path.join(dataDir, 'chats'), { recursive: true });
    const stale = [path.join(toolsDir, `${seeded.tools[0]!.toolID}.json.1234567`), path.join(dataDir, 'bundles', seeded.bundleID, 'bundle.json.99'), path.join(dataDir, 'chats', `${newID()}.json.42`), path.join(dataDir, 'settings.json.tmp-17000abc')];
    const fresh = path.join(toolsDir, `${newID()}.json.555`);
    const notOurs = path.join(toolsDir, 'backup.json.old');
    const anHourAgo = new Date(Date.now() - 60 * 60 * 1000);
    for (const file of [...stale, fresh, notOurs]) await writeFile(file, '{"half": ');
    for (const file of [...stale, notOurs]) await utimes(file, anHourAgo, anHourAgo);

    await startTestCore({ dataDir, clock: { now: () => new Date() } });
    for (const file of stale) expect(await exists(file), file).toBe(false);
    expect(await exists(fresh)).toBe(true);
    expect(await exists(notOurs)).toBe(true);
  });
});

describe('chat files and settings.json that cannot be used', () => {
  it('a corrupt chat file is listed apart with its path and reason, reported on open, and never rewritten', async () => {
    const { call, failure, dataDir } = await startTestCore();
    const good = await call('chats.create', { providerId: 'none', model: 'm' }).catch(() => null);
    const chatId = newID();
    const file = path.join(dataDir, 'chats', `${chatId}.json`);
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, '{"id": "half a chat", ');
    const listed = await call('chats.list', {});
    expect(listed.invalid).toEqual([{ id: chatId, file, reason: expect.stringContaining('not valid JSON') as unknown }]);
    expect(listed.chats.map((chat) => chat.id)).toEqual(good ? [good.id] : []);
    const opened = await failure('chats.get', { chatId });
    expect(opened).toMatchObject({ code: 'file_invalid', message: expect.stringContaining(file) as unknown });
    expect(await readFile(file, 'utf8')).toBe('{"id": "half a chat", ');
  });

  it('settings.json that is not JSON or not settings is reported with the reason, runs on defaults, and is never written', async () => {
    const dataDir = await tempDirForTest();
    const file = path.join(dataDir, 'settings.json');
    await writeFile(file, '{ broken');
    const { call, failure } = await startTestCore({ dataDir });
    expect(await call('settings.get', {})).toMatchObject({ theme: 'system', problem: { file, reason: expect.stringContaining('not valid JSON') as unknown } });
    expect((await failure('settings.patch', { theme: 'dark' })).code).toBe('file_invalid');
    expect(await readFile(file, 'utf8')).toBe('{ broken');

    // Another program makes it valid JSON that is not settings, then mends it: each is seen.
    await writeFile(file, '{"theme": 5}');
    await utimes(file, new Date(), new Date(Date.now() + 5_000));
    await vi.waitFor(async () => expect((await call('settings.get', {})).problem).toEqual({ file, reason: expect.stringContaining('/theme') as unknown }), { timeout: 5_000, interval: 20 });
  });
});

describe('files and folders the core makes', () => {
  it('are private to their user: files 0600, folders 0700', async () => {
    // Someone else made the data folder, readable by all: what the core makes in it is private anyway.
    const dataDir = path.join(await tempDirForTest(), 'data');
    await mkdir(dataDir, { mode: 0o755 });
    const { call } = await startTestCore({ dataDir });
    const bundleID = newID();
    await call('bundles.put', { bundleID, slug: 'b', displayName: 'B' });
    await call('tools.put', { bundleID, toolSlug: 't', version: 'v1', tool: httpTool() });
    await call('settings.patch', { theme: 'dark' });
    await call('secrets.put', { name: 'TOKEN', value: 'abc123' });
    await call('bundles.patch', { bundleID: CORE_BUNDLE, isEnabled: false });
    const loose: string[] = [];
    const walk = async (folder: string): Promise<void> => {
      for (const entry of await readdir(folder, { withFileTypes: true })) {
        const full = path.join(folder, entry.name);
        const mode = (await lstat(full)).mode & 0o777;
        if (entry.isDirectory()) {
          if (mode !== 0o700) loose.push(`${path.relative(dataDir, full)}/ ${mode.toString(8)}`);
          await walk(full);
        } else if (mode !== 0o600) loose.push(`${path.relative(dataDir, full)} ${mode.toString(8)}`);
      }
    };
    await walk(dataDir);
    expect(loose).toEqual([]);
  });
});

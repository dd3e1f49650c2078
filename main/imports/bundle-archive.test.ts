import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { strToU8, unzipSync, zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import type { ToolView } from '../../shared/schemas/tool.js';
import { newID } from '../../testing/data/fixtures.js';
import { startTestCore, type TestCore } from '../../testing/harness/test-core.js';

async function seedBundle(core: TestCore): Promise<string> {
  const bundleID = newID();
  await core.call('bundles.put', { bundleID, slug: 'notes-api', displayName: 'Notes API', description: 'Notes.', http: { baseUrl: 'https://notes.example.com/v1', auth: { kind: 'bearer', token: '${secret.NOTES_TOKEN}' }, allowedHosts: ['notes.example.com'] } });
  await core.call('secrets.put', { name: 'NOTES_TOKEN', value: 'sk-very-secret' });
  await core.call('tools.put', { bundleID, toolSlug: 'list-notes', version: 'v1', tool: { displayName: 'List notes', type: 'http', argSchema: { type: 'object', properties: { q: { type: 'string' } } }, impl: { method: 'GET', urlTemplate: '/notes', query: { q: '${q}' }, headers: { 'X-Team': '${secret.TEAM_ID}' } } } });
  await core.call('tools.put', { bundleID, toolSlug: 'list-notes', version: 'v2', tool: { displayName: 'List notes (paged)', type: 'http', argSchema: { type: 'object', properties: { page: { type: 'integer' } } }, impl: { method: 'GET', urlTemplate: '/notes', query: { page: '${page}' } } } });
  return bundleID;
}

const toolsOf = async (core: TestCore, bundleID: string) =>
  ((await core.call('tools.list', { bundleIDs: [bundleID], includeDisabled: true })) as { tools: ToolView[] }).tools.map((tool) => [tool.slug, tool.version, tool.displayName]).sort();

describe('bundles as .zip files', () => {
  it('exports bundle.json, its tools and the secret names it needs (never values), and imports as a new bundle elsewhere, whole', async () => {
    const source = await startTestCore();
    const bundleID = await seedBundle(source);
    const archive = await source.call('bundles.export', { bundleID });
    expect(archive.fileName).toBe('notes-api.zip');
    expect(archive.secrets).toEqual(['NOTES_TOKEN', 'TEAM_ID']);
    const bytes = Buffer.from(archive.base64, 'base64');
    expect(bytes.includes('sk-very-secret')).toBe(false);
    expect(Object.keys(unzipSync(bytes)).sort()).toEqual(['bundle.json', 'manifest.json', expect.stringMatching(/^tools\/.+\.json$/), expect.stringMatching(/^tools\/.+\.json$/)]);

    const target = await startTestCore();
    const newBundleID = newID();
    const preview = await target.call('bundles.importArchive', { base64: archive.base64, bundleID: newBundleID });
    expect(preview).toEqual({
      bundle: { slug: 'notes-api', displayName: 'Notes API', description: 'Notes.' },
      tools: [expect.objectContaining({ slug: 'list-notes', type: 'http' }), expect.objectContaining({ slug: 'list-notes', type: 'http' })],
      secrets: [
        { name: 'NOTES_TOKEN', isSet: false },
        { name: 'TEAM_ID', isSet: false },
      ],
      hosts: ['notes.example.com'],
      sameName: [],
      importedAs: { slug: 'notes-api', displayName: 'Notes API' },
    });
    expect(await readdir(path.join(target.dataDir, 'bundles')).catch(() => [])).toEqual([]);
    const applied = await target.call('bundles.importArchive', { base64: archive.base64, bundleID: newBundleID, apply: true, allowHosts: ['notes.example.com'] });
    expect(applied.bundleID).toBe(newBundleID);
    expect(await toolsOf(target, newBundleID)).toEqual(await toolsOf(source, bundleID));
    const { bundles } = (await target.call('bundles.list', { bundleIDs: [newBundleID] })) as { bundles: { http?: unknown }[] };
    expect(bundles[0]!.http).toEqual({ baseUrl: 'https://notes.example.com/v1', auth: { kind: 'bearer', token: '${secret.NOTES_TOKEN}' }, allowedHosts: ['notes.example.com'] });

    // The same archive again is another bundle beside the first, never over it.
    const again = await target.call('bundles.importArchive', { base64: archive.base64, bundleID: newID() });
    expect(again.sameName).toEqual([newBundleID]);
    // Numbered, as people number copies, so the two can be told apart in every list (defect 9).
    expect(again.importedAs).toEqual({ slug: 'notes-api-2', displayName: 'Notes API (2)' });
    const secondID = newID();
    await target.call('bundles.importArchive', { base64: archive.base64, bundleID: secondID, apply: true });
    const third = await target.call('bundles.importArchive', { base64: archive.base64, bundleID: newID() });
    expect(third.importedAs).toEqual({ slug: 'notes-api-3', displayName: 'Notes API (3)' });
    const { bundles: written } = (await target.call('bundles.list', { bundleIDs: [secondID] })) as { bundles: { slug: string; displayName: string }[] };
    expect(written[0]).toMatchObject({ slug: 'notes-api-2', displayName: 'Notes API (2)' });
  });

  it('refuses archives with path tricks, foreign files, links, oversize files or invalid tools, whole, writing nothing', async () => {
    const core = await startTestCore();
    const source = await startTestCore();
    const good = unzipSync(Buffer.from(((await source.call('bundles.export', { bundleID: await seedBundle(source) })) as { base64: string }).base64, 'base64'));
    const toolName = Object.keys(good).find((name) => name.startsWith('tools/'))!;
    const zip = (files: Record<string, Uint8Array | [Uint8Array, { os: number; attrs: number }]>) => Buffer.from(zipSync(files)).toString('base64');
    const refusal = async (base64: string) => {
      const failure = await core.failure('bundles.importArchive', { base64, bundleID: newID(), apply: true });
      return `${failure.code}: ${failure.message}`;
    };
    expect(await refusal(zip({ ...good, '../escape.json': strToU8('{}') }))).toMatch(/import_invalid: .*"\.\.\/escape\.json" points outside the bundle/);
    expect(await refusal(zip({ ...good, '/etc/passwd': strToU8('x') }))).toMatch(/points outside the bundle/);
    expect(await refusal(zip({ ...good, 'tools/../../x.json': strToU8('{}') }))).toMatch(/points outside the bundle/);
    expect(await refusal(zip({ ...good, 'C:/Windows/x.json': strToU8('{}') }))).toMatch(/points outside the bundle/);
    expect(await refusal(zip({ ...good, 'notes.txt': strToU8('hi') }))).toMatch(/"notes\.txt" is not part of a bundle/);
    // A symbolic link stored in the archive is read as the text of its target: not a tool.
    const link: [Uint8Array, { os: number; attrs: number }] = [strToU8('../../../../etc/passwd'), { os: 3, attrs: (0o120777 << 16) >>> 0 }];
    expect(await refusal(zip({ ...good, [toolName]: link }))).toMatch(/is not JSON/);
    expect(await refusal(zip({ ...good, [toolName]: new Uint8Array(6 * 1024 * 1024).fill(32) }))).toMatch(/larger than 5 MB unpacked/);
    expect(await refusal(zip({ ...good, [toolName]: strToU8(JSON.stringify({ slug: 'x', version: 'v1', displayName: '', type: 'http', argSchema: {}, impl: { method: 'GET', urlTemplate: 'ftp://x' } })) }))).toMatch(/is not a valid tool: .*impl\/urlTemplate/);
    const { 'manifest.json': _manifest, ...withoutManifest } = good;
    expect(await refusal(zip(withoutManifest))).toMatch(/it has no manifest\.json/);
    expect(await refusal(Buffer.from('not a zip at all').toString('base64'))).toMatch(/not a readable \.zip/);
    expect(await readdir(path.join(core.dataDir, 'bundles')).catch(() => [])).toEqual([]);
  });
});

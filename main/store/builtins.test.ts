import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { SHIPPED_BUNDLES } from '../builtins/index.js';
import { PROJECT_ROOT } from '../../testing/cores/spawned-host.js';
import { CORE_BUNDLE as CORE, httpTool } from '../../testing/data/fixtures.js';
import { startTestCore } from '../../testing/harness/test-core.js';

const METEO = '01a2008d-7401-7000-8000-068142ee20ea';

async function builtinsDigest(): Promise<string> {
  const hash = createHash('sha256');
  const walk = async (folder: string): Promise<void> => {
    for (const entry of (await readdir(folder, { withFileTypes: true })).sort((a, b) => a.name.localeCompare(b.name))) {
      const full = path.join(folder, entry.name);
      if (entry.isDirectory()) await walk(full);
      else hash.update(entry.name).update(await readFile(full));
    }
  };
  await walk(path.join(PROJECT_ROOT, 'main/builtins'));
  return hash.digest('hex');
}

describe('built-in bundles', () => {
  it('ship Core (local tools) and an HTTP example, listed and searchable like any other', async () => {
    const { call } = await startTestCore();
    const bundles = (await call('bundles.list', {})).bundles;
    expect(bundles.slice(0, 2).map((bundle) => bundle.status === 'valid' && [bundle.slug, bundle.isBuiltIn])).toEqual([
      ['core', true],
      ['open-meteo', true],
    ]);
    const core = (await call('tools.list', { bundleIDs: [CORE] })).tools.map((tool) => tool.slug);
    expect(core.sort()).toEqual(['ask-user', 'calculator', 'current-time', 'read-text-file', 'tool-search']);
    const meteo = (await call('tools.list', { bundleIDs: [METEO] })).tools;
    expect(meteo.map((tool) => tool.status === 'valid' && tool.type)).toEqual(['http', 'http']);
    const found = (await call('tools.search', { q: 'calc' })).tools[0];
    expect(found?.slug).toBe('calculator');
  });

  it('are read-only: no put, delete, or new tools', async () => {
    const { failure } = await startTestCore();
    const refused = async (name: Parameters<typeof failure>[0], params: unknown) => {
      const error = await failure(name, params);
      expect(error.code, name).toBe('builtin_immutable');
      expect(error.httpStatus).toBe(403);
    };
    await refused('bundles.put', { bundleID: CORE, slug: 'core', displayName: 'Mine now' });
    await refused('bundles.delete', { bundleID: CORE });
    await refused('tools.put', { bundleID: CORE, toolSlug: 'new', version: 'v1', tool: httpTool() });
    await refused('tools.put', { bundleID: CORE, toolSlug: 'calculator', version: 'v1', tool: httpTool() });
    await refused('tools.delete', { bundleID: CORE, toolSlug: 'calculator', version: 'v1' });
  });

  it('can be switched off and on; the choice is kept in the data folder, never in builtins/', async () => {
    const before = await builtinsDigest();
    const subject = await startTestCore();
    const off = await subject.call('tools.patch', { bundleID: CORE, toolSlug: 'calculator', version: 'v1', isEnabled: false });
    expect(off).toMatchObject({ status: 'valid', isEnabled: false });
    await subject.call('bundles.patch', { bundleID: METEO, isEnabled: false });
    expect((await subject.call('tools.search', { q: 'calculator' })).tools.map((tool) => tool.slug)).not.toContain('calculator');
    expect((await subject.call('tools.list', { bundleIDs: [METEO] })).tools).toEqual([]);

    const overrides = JSON.parse(await readFile(path.join(subject.dataDir, 'builtins.json'), 'utf8')) as unknown;
    expect(overrides).toEqual({ bundles: { [METEO]: false }, tools: { '01a2008d-7403-7000-8000-0ca6c2d7260a': false } });

    const reopened = await subject.reopen();
    const tool = await reopened.call('tools.get', { bundleID: CORE, toolSlug: 'calculator', version: 'v1' });
    expect(tool).toMatchObject({ isEnabled: false });
    await reopened.call('bundles.patch', { bundleID: METEO, isEnabled: true });
    expect((await reopened.call('tools.list', { bundleIDs: [METEO] })).tools).toHaveLength(2);
    expect(await builtinsDigest()).toBe(before);
  });

  it('refuses to overwrite a hand-broken builtins.json', async () => {
    const subject = await startTestCore();
    const { writeFile } = await import('node:fs/promises');
    await writeFile(path.join(subject.dataDir, 'builtins.json'), '{ nope');
    const error = await subject.failure('bundles.patch', { bundleID: CORE, isEnabled: false });
    expect(error.code).toBe('file_invalid');
    expect(await readFile(path.join(subject.dataDir, 'builtins.json'), 'utf8')).toBe('{ nope');
  });

  it('lists every JSON file under builtins/ in builtins/index.ts', async () => {
    const onDisk: string[] = [];
    for (const folder of await readdir(path.join(PROJECT_ROOT, 'main/builtins'), { withFileTypes: true })) {
      if (!folder.isDirectory()) continue;
      const tools = await readdir(path.join(PROJECT_ROOT, 'main/builtins', folder.name, 'tools')).catch(() => []);
      onDisk.push(`${folder.name}/bundle.json`, ...tools.filter((file) => file.endsWith('.json')).map((file) => `${folder.name}/tools/${file}`));
    }
    const listed = SHIPPED_BUNDLES.flatMap((shipped) => [
      `${shipped.folder}/bundle.json`,
      ...shipped.tools.map((tool) => `${shipped.folder}/tools/${tool.file}`),
    ]);
    expect(listed.sort()).toEqual(onDisk.sort());
  });
});

import { readdir, readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { httpTool, localTool, newID } from '../../testing/data/fixtures.js';
import { seedBundle } from '../../testing/data/seed.js';
import { manualClock, startTestCore, type TestCore } from '../../testing/harness/test-core.js';
import { tempDirForTest } from '../../testing/harness/test-temp-dir.js';

async function withBundle(options: Parameters<typeof startTestCore>[0] = {}): Promise<TestCore & { bundleID: string }> {
  const subject = await startTestCore(options);
  const bundleID = newID();
  await subject.call('bundles.put', { bundleID, slug: 'mine', displayName: 'Mine' });
  return { ...subject, bundleID };
}

describe('tools.put', () => {
  it('creates a tool with a new UUIDv7, timestamps, defaults and its usage', async () => {
    const { call, bundleID } = await withBundle({ clock: manualClock() });
    const tool = await call('tools.put', { bundleID, toolSlug: 'weather', version: 'v2', tool: httpTool() });
    expect(tool.toolID).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7/);
    expect(tool).toMatchObject({
      schemaVersion: '1',
      bundleID,
      slug: 'weather',
      version: 'v2',
      isEnabled: true,
      isBuiltIn: false,
      createdAt: '2026-03-01T10:00:00.000Z',
      modifiedAt: '2026-03-01T10:00:00.000Z',
      usage: { callCount: 0 },
      available: true,
      status: 'valid',
    });
    expect(await call('tools.get', { bundleID, toolSlug: 'weather', version: 'v2' })).toEqual(tool);
  });

  it('refuses an existing <slug, version> with conflict and leaves the tool unchanged', async () => {
    const { call, failure, bundleID, dataDir } = await withBundle();
    const first = await call('tools.put', { bundleID, toolSlug: 'weather', version: 'v1', tool: httpTool() });
    const file = path.join(dataDir, 'bundles', bundleID, 'tools', `${first.toolID}.json`);
    const before = await readFile(file, 'utf8');
    const error = await failure('tools.put', {
      bundleID,
      toolSlug: 'weather',
      version: 'v1',
      tool: httpTool({ displayName: 'Something else' }),
    });
    expect(error.code).toBe('conflict');
    expect(error.httpStatus).toBe(409);
    expect(error.details).toEqual({ toolID: first.toolID });
    expect(await readFile(file, 'utf8')).toBe(before);
    expect(await readdir(path.dirname(file))).toEqual([`${first.toolID}.json`]);
  });

  it('allows the same <slug, version> in another bundle, and another version in the same one', async () => {
    const { call, bundleID } = await withBundle();
    const other = newID();
    await call('bundles.put', { bundleID: other, slug: 'other', displayName: 'Other' });
    await call('tools.put', { bundleID, toolSlug: 'weather', version: 'v1', tool: httpTool() });
    await call('tools.put', { bundleID, toolSlug: 'weather', version: 'v2', tool: httpTool() });
    await call('tools.put', { bundleID: other, toolSlug: 'weather', version: 'v1', tool: httpTool() });
    expect((await call('tools.list', { bundleIDs: [bundleID, other] })).tools).toHaveLength(3);
  });

  it('treats slugs as case-sensitive and Unicode, naming files by id only', async () => {
    const { call, bundleID, dataDir } = await withBundle();
    const slugs = ['Weather', 'weather', 'météo', '天気', 'मौसम', 'погода-2'];
    const ids: string[] = [];
    for (const toolSlug of slugs) {
      ids.push((await call('tools.put', { bundleID, toolSlug, version: '1.0.0', tool: httpTool() })).toolID);
    }
    for (const [index, toolSlug] of slugs.entries()) {
      expect((await call('tools.get', { bundleID, toolSlug, version: '1.0.0' })).toolID).toBe(ids[index]);
    }
    const files = (await readdir(path.join(dataDir, 'bundles', bundleID, 'tools'))).sort();
    expect(files).toEqual(ids.map((id) => `${id}.json`).sort());
  });

  it('treats composed and decomposed accents as the same slug', async () => {
    const { call, failure, bundleID } = await withBundle();
    await call('tools.put', { bundleID, toolSlug: 'caf\u00e9', version: 'v1', tool: httpTool() });
    expect((await failure('tools.put', { bundleID, toolSlug: 'cafe\u0301', version: 'v1', tool: httpTool() })).code).toBe('conflict');
  });

  it('rejects bad slugs and versions, ".." included', async () => {
    const { failure, bundleID } = await withBundle();
    const cases: [string, string][] = [
      ['under_score', 'v1'],
      ['with space', 'v1'],
      ['a/b', 'v1'],
      ['sym$bol', 'v1'],
      ['x'.repeat(65), 'v1'],
      ['', 'v1'],
      ['ok', '..'],
      ['ok', '.'],
      ['ok', 'v1/../../etc'],
      ['ok', 'v 1'],
    ];
    for (const [toolSlug, version] of cases) {
      const error = await failure('tools.put', { bundleID, toolSlug, version, tool: httpTool() });
      expect(error.code, `${toolSlug} ${version}`).toBe('invalid_params');
    }
  });

  it('accepts 64-rune Unicode slugs and dotted versions', async () => {
    const { call, bundleID } = await withBundle();
    const toolSlug = 'é'.repeat(64);
    await expect(call('tools.put', { bundleID, toolSlug, version: '2.10.0-beta', tool: httpTool() })).resolves.toMatchObject({
      slug: toolSlug,
    });
  });

  it('requires identity fields in the body to match the URL', async () => {
    const { failure, bundleID } = await withBundle();
    const error = await failure('tools.put', { bundleID, toolSlug: 'a', version: 'v1', tool: httpTool({ slug: 'b' }) });
    expect(error.code).toBe('invalid_params');
    expect(error.details).toEqual({ issues: [{ path: '/slug', message: 'does not match the URL' }] });
  });

  it('rejects an invalid argSchema with the path of the problem', async () => {
    const { failure, bundleID } = await withBundle();
    const error = await failure('tools.put', {
      bundleID,
      toolSlug: 'a',
      version: 'v1',
      tool: httpTool({ argSchema: { type: 'object', properties: { city: { type: 'strin' } } } }),
    });
    expect(error.code).toBe('invalid_params');
    const issues = (error.details as { issues: { path: string }[] }).issues;
    expect(issues.some((issue) => issue.path.startsWith('/argSchema/properties/city/type'))).toBe(true);
  });

  it('rejects an outputSchema with a broken regular expression, and a non-object argSchema', async () => {
    const { failure, bundleID } = await withBundle();
    const broken = await failure('tools.put', {
      bundleID,
      toolSlug: 'a',
      version: 'v1',
      tool: httpTool({ outputSchema: { type: 'string', pattern: '([' } }),
    });
    expect(JSON.stringify(broken.details)).toContain('/outputSchema');
    const notObject = await failure('tools.put', {
      bundleID,
      toolSlug: 'a',
      version: 'v1',
      tool: httpTool({ argSchema: { type: 'string' } }),
    });
    expect(notObject.details).toEqual({ issues: [{ path: '/argSchema/type', message: 'must be "object": tools take named arguments' }] });
  });

  it('checks HTTP templates: scheme, placeholders, body rules, extract expressions', async () => {
    const { failure, bundleID } = await withBundle();
    const problems = async (impl: Record<string, unknown>) => {
      const error = await failure('tools.put', { bundleID, toolSlug: 'a', version: 'v1', tool: httpTool({ impl }) });
      expect(error.code).toBe('invalid_params');
      return (error.details as { issues: { path: string; message: string }[] }).issues;
    };
    expect((await problems({ method: 'GET', urlTemplate: 'ftp://x.example/' }))[0]!.path).toBe('/impl/urlTemplate');
    expect((await problems({ method: 'GET', urlTemplate: 'https://x.example/${args.nope}' }))[0]!.message).toContain(
      'is not an argument of argSchema',
    );
    expect((await problems({ method: 'GET', urlTemplate: 'https://x.example/${city' }))[0]!.message).toContain('closing');
    expect((await problems({ method: 'GET', urlTemplate: 'https://x.example/', headers: { 'X-A': '${other.thing}' } }))[0]!.path).toBe(
      '/impl/headers/X-A',
    );
    expect((await problems({ method: 'POST', urlTemplate: 'https://x.example/', body: { a: 1 }, bodyTemplate: '{}' }))[0]!.path).toBe(
      '/impl/bodyTemplate',
    );
    expect((await problems({ method: 'GET', urlTemplate: 'https://x.example/', extractExpr: '/(unclosed/' }))[0]!.path).toBe(
      '/impl/extractExpr',
    );
    expect((await problems({ method: 'GET', urlTemplate: 'https://${secret.HOST}/' }))[0]!.message).toContain('host');
    expect((await problems({ method: 'GET', urlTemplate: 'https://x.example/', retry: { maxAttempts: 0 } }))[0]!.path).toBe(
      '/impl/retry/maxAttempts',
    );
  });

  it('accepts arguments, explicit args, and secrets as placeholders', async () => {
    const { call, bundleID } = await withBundle();
    const tool = httpTool({
      impl: {
        method: 'POST',
        urlTemplate: 'https://api.example.com/cities/${city}?units=${args.city}',
        headers: { Authorization: 'Bearer ${secret.WEATHER_KEY}', 'X-Trace': '${TRACE_ID}' },
        body: { city: '${city}', nested: { list: ['${city}', 3] } },
        auth: { kind: 'apiKey', location: 'query', name: 'key', value: '${WEATHER_KEY}' },
      },
    });
    await expect(call('tools.put', { bundleID, toolSlug: 'a', version: 'v1', tool })).resolves.toMatchObject({ slug: 'a' });
  });

  it('adds the tools folder to a bundle folder made by hand without one', async () => {
    const dataDir = await tempDirForTest();
    const seeded = await seedBundle(dataDir, { tools: [] });
    await rm(path.join(dataDir, 'bundles', seeded.bundleID, 'tools'), { recursive: true });
    const { call } = await startTestCore({ dataDir });
    await expect(call('tools.put', { bundleID: seeded.bundleID, toolSlug: 'first', version: 'v1', tool: httpTool() })).resolves.toMatchObject({
      slug: 'first',
    });
  });

  it('reports a local tool whose function does not exist as unavailable, not as an error', async () => {
    const { call, bundleID } = await withBundle();
    const tool = await call('tools.put', { bundleID, toolSlug: 'ghost', version: 'v1', tool: localTool('no.such.function') });
    expect(tool.available).toBe(false);
    expect(tool.unavailableReason).toContain('no.such.function');
  });
});

describe('tools.patch and tools.delete', () => {
  it('switches a tool off without touching modifiedAt, and hides it from lists', async () => {
    const clock = manualClock();
    const { call, bundleID } = await withBundle({ clock });
    await call('tools.put', { bundleID, toolSlug: 'weather', version: 'v1', tool: httpTool() });
    clock.advance(5_000);
    const off = await call('tools.patch', { bundleID, toolSlug: 'weather', version: 'v1', isEnabled: false });
    expect(off).toMatchObject({ isEnabled: false, modifiedAt: '2026-03-01T10:00:00.000Z' });
    expect((await call('tools.list', { bundleIDs: [bundleID] })).tools).toEqual([]);
    expect((await call('tools.list', { bundleIDs: [bundleID], includeDisabled: true })).tools).toHaveLength(1);
  });

  it('refuses to create or patch tools in a disabled or deleted bundle', async () => {
    const { call, failure, bundleID } = await withBundle();
    await call('tools.put', { bundleID, toolSlug: 'weather', version: 'v1', tool: httpTool() });
    await call('bundles.patch', { bundleID, isEnabled: false });
    const address = { bundleID, toolSlug: 'weather', version: 'v1' };
    expect((await failure('tools.put', { ...address, version: 'v2', tool: httpTool() })).code).toBe('bundle_disabled');
    expect((await failure('tools.patch', { ...address, isEnabled: false })).code).toBe('bundle_disabled');
    await call('bundles.patch', { bundleID, isEnabled: true });
    await call('bundles.delete', { bundleID });
    expect((await failure('tools.put', { ...address, version: 'v2', tool: httpTool() })).code).toBe('bundle_disabled');
    expect((await failure('tools.patch', { ...address, isEnabled: true })).code).toBe('bundle_disabled');
  });

  it('deletes a tool file for good, usage included', async () => {
    const { call, failure, core, bundleID, dataDir } = await withBundle();
    const tool = await call('tools.put', { bundleID, toolSlug: 'weather', version: 'v1', tool: httpTool() });
    core.store.usage.record(tool.toolID, new Date());
    await core.store.usage.flush();
    expect(await call('tools.delete', { bundleID, toolSlug: 'weather', version: 'v1' })).toBeNull();
    expect(await readdir(path.join(dataDir, 'bundles', bundleID, 'tools'))).toEqual([]);
    expect(await readdir(path.join(dataDir, 'usage'))).toEqual([]);
    expect((await failure('tools.get', { bundleID, toolSlug: 'weather', version: 'v1' })).code).toBe('not_found');
    expect((await failure('tools.delete', { bundleID, toolSlug: 'weather', version: 'v1' })).code).toBe('not_found');
  });

  it('stays deleted when a re-read from disk (the watcher after an edit) races the delete', async () => {
    const { call, failure, core, bundleID } = await withBundle();
    for (let round = 0; round < 40; round++) {
      await call('tools.put', { bundleID, toolSlug: `t${round}`, version: 'v1', tool: httpTool() });
      // The re-read lists and reads the file while the delete removes it and forgets the tool.
      await Promise.all([core.store.refreshBundle(bundleID), call('tools.delete', { bundleID, toolSlug: `t${round}`, version: 'v1' })]);
      expect((await failure('tools.get', { bundleID, toolSlug: `t${round}`, version: 'v1' })).code, `round ${round}`).toBe('not_found');
    }
  });

  it('keeps usage apart from tool.json and returns it with the tool, across a restart', async () => {
    const clock = manualClock();
    const subject = await withBundle({ clock });
    const { call, core, bundleID, dataDir } = subject;
    const tool = await call('tools.put', { bundleID, toolSlug: 'weather', version: 'v1', tool: httpTool() });
    const file = path.join(dataDir, 'bundles', bundleID, 'tools', `${tool.toolID}.json`);
    const before = await readFile(file, 'utf8');
    core.store.usage.record(tool.toolID, new Date('2026-03-01T11:00:00.000Z'));
    core.store.usage.record(tool.toolID, new Date('2026-03-01T12:00:00.000Z'));
    const usage = { callCount: 2, lastCalledAt: '2026-03-01T12:00:00.000Z' };
    expect(await call('tools.get', { bundleID, toolSlug: 'weather', version: 'v1' })).toMatchObject({ usage });
    await core.store.usage.flush();
    expect(await readFile(file, 'utf8')).toBe(before);
    const reopened = await subject.reopen();
    expect(await reopened.call('tools.get', { bundleID, toolSlug: 'weather', version: 'v1' })).toMatchObject({ usage });
  });
});

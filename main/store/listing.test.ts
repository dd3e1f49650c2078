import { describe, expect, it } from 'vitest';
import type { ToolEntry } from '../../shared/schemas/tool.js';
import { httpTool, newID } from '../../testing/data/fixtures.js';
import { seedBundle } from '../../testing/data/seed.js';
import { startTestCore, type TestCore } from '../../testing/harness/test-core.js';
import { tempDirForTest } from '../../testing/harness/test-temp-dir.js';

async function walk(
  fetchPage: (pageToken?: string) => Promise<{ tools: ToolEntry[]; nextPageToken?: string }>,
): Promise<{ ids: string[]; pages: number }> {
  const ids: string[] = [];
  let pages = 0;
  let token: string | undefined;
  do {
    const page = await fetchPage(token);
    ids.push(...page.tools.map((tool) => tool.toolID));
    token = page.nextPageToken;
    pages++;
  } while (token);
  return { ids, pages };
}

const slugs = (page: { tools: ToolEntry[] }) => page.tools.map((tool) => tool.slug);

describe('tools.list', () => {
  it('pages through 1,000 tools, every tool exactly once', async () => {
    const dataDir = await tempDirForTest();
    const seeded = await seedBundle(dataDir, {
      tools: Array.from({ length: 1000 }, (_, index) => ({ slug: `tool-${index}`, displayName: `Tool ${index % 97}` })),
    });
    const { call } = await startTestCore({ dataDir });
    const { ids, pages } = await walk((pageToken) =>
      call('tools.list', { bundleIDs: [seeded.bundleID], recommendedPageSize: 37, ...(pageToken ? { pageToken } : {}) }),
    );
    expect(pages).toBe(Math.ceil(1000 / 37));
    expect(ids).toHaveLength(1000);
    expect(new Set(ids).size).toBe(1000);
    expect(new Set(ids)).toEqual(new Set(seeded.tools.map((tool) => tool.toolID)));
  });

  it('keeps paging stable while tools are added and removed between pages', async () => {
    const dataDir = await tempDirForTest();
    const seeded = await seedBundle(dataDir, {
      tools: Array.from({ length: 30 }, (_, index) => ({ slug: `t${String(index).padStart(2, '0')}`, displayName: `T${String(index).padStart(2, '0')}` })),
    });
    const { call } = await startTestCore({ dataDir });
    const bundleIDs = [seeded.bundleID];
    const first = await call('tools.list', { bundleIDs, recommendedPageSize: 10 });
    // Something sorting before the cursor appears, and something already seen goes.
    await call('tools.put', { bundleID: seeded.bundleID, toolSlug: 'aaa', version: 'v1', tool: httpTool({ displayName: 'A first' }) });
    await call('tools.delete', { bundleID: seeded.bundleID, toolSlug: 't00', version: 'v1' });
    const rest = await walk((pageToken) => call('tools.list', { bundleIDs, recommendedPageSize: 10, pageToken: pageToken ?? first.nextPageToken! }));
    const all = [...first.tools.map((tool) => tool.toolID), ...rest.ids];
    expect(new Set(all).size).toBe(all.length);
    expect(all).toHaveLength(30);
  });

  it('filters by tags (all of them) and bundles', async () => {
    const { call } = await startTestCore();
    const bundleID = newID();
    await call('bundles.put', { bundleID, slug: 'b', displayName: 'B' });
    await call('tools.put', { bundleID, toolSlug: 'one', version: 'v1', tool: httpTool({ tags: ['weather', 'eu'] }) });
    await call('tools.put', { bundleID, toolSlug: 'two', version: 'v1', tool: httpTool({ tags: ['weather'] }) });
    expect(slugs(await call('tools.list', { bundleIDs: [bundleID], tags: ['weather'] })).sort()).toEqual(['one', 'two']);
    expect(slugs(await call('tools.list', { bundleIDs: [bundleID], tags: ['weather', 'eu'] }))).toEqual(['one']);
  });

  it('ranks the tools that have every word typed as tool search does: "create issue" finds the tool named so before newer ones that only mention both', async () => {
    const { call } = await startTestCore();
    const bundleID = newID();
    await call('bundles.put', { bundleID, slug: 'github', displayName: 'GitHub' });
    // Written first, so the oldest: ordered by date it came last.
    const tools: [string, string, string][] = [
      ['issues-create', 'Create an issue', 'Any user with pull access to a repository can create an issue.'],
      ['issues-create-comment', 'Create an issue comment', 'Creates a comment on an issue or a pull request; it can create notifications.'],
      ['issues-create-label', 'Create a label', 'Creates a label for the issues of a repository.'],
      ['issues-lock', 'Lock an issue', 'Locks the conversation of an issue; only people with push access can create comments then.'],
      ['projects-create-card', 'Create a project card', 'Adds an issue or a note to a project column, or creates one.'],
    ];
    for (const [toolSlug, displayName, description] of tools) {
      await call('tools.put', { bundleID, toolSlug, version: 'v1', tool: httpTool({ displayName, description }) });
    }
    const found = slugs(await call('tools.search', { q: 'create issue' }));
    expect(found).toEqual(expect.arrayContaining(tools.map(([slug]) => slug)));
    expect(found[0]).toBe('issues-create');
    // A name typed from its start still comes first, whatever its text.
    expect(slugs(await call('tools.search', { q: 'issues-lock' }))[0]).toBe('issues-lock');
  });

  it('rejects a page token from another listing', async () => {
    const { call, failure } = await startTestCore();
    const page = await call('tools.search', { q: 'c', pageSize: 1 });
    expect(page.nextPageToken).toBeDefined();
    expect((await failure('tools.search', { q: 'other', pageToken: page.nextPageToken })).code).toBe('invalid_params');
    expect((await failure('tools.list', { pageToken: page.nextPageToken })).code).toBe('invalid_params');
    expect((await failure('tools.list', { pageToken: 'garbage' })).code).toBe('invalid_params');
  });
});

describe('visibility', () => {
  async function setup(): Promise<TestCore & { on: string; off: string }> {
    const subject = await startTestCore();
    const on = newID();
    const off = newID();
    await subject.call('bundles.put', { bundleID: on, slug: 'on', displayName: 'On' });
    await subject.call('bundles.put', { bundleID: off, slug: 'off', displayName: 'Off' });
    await subject.call('tools.put', { bundleID: on, toolSlug: 'zebra-enabled', version: 'v1', tool: httpTool() });
    await subject.call('tools.put', { bundleID: on, toolSlug: 'zebra-disabled', version: 'v1', tool: httpTool({ isEnabled: false }) });
    await subject.call('tools.put', { bundleID: off, toolSlug: 'zebra-in-off-bundle', version: 'v1', tool: httpTool() });
    await subject.call('bundles.patch', { bundleID: off, isEnabled: false });
    return { ...subject, on, off };
  }

  it('leaves disabled tools and tools of disabled bundles out of lists and search', async () => {
    const { call, on, off } = await setup();
    expect(slugs(await call('tools.search', { q: 'zebra' }))).toEqual(['zebra-enabled']);
    expect(slugs(await call('tools.list', { bundleIDs: [on, off] }))).toEqual(['zebra-enabled']);
  });

  it('includes them with includeDisabled=true', async () => {
    const { call, on, off } = await setup();
    expect(slugs(await call('tools.search', { q: 'zebra', includeDisabled: true })).sort()).toEqual([
      'zebra-disabled',
      'zebra-enabled',
      'zebra-in-off-bundle',
    ]);
    expect(await call('tools.list', { bundleIDs: [on, off], includeDisabled: true })).toMatchObject({ tools: { length: 3 } });
  });
});

describe('tools.search ranking', () => {
  it('ranks prefix > whole word > fuzzy, newest first among equals', async () => {
    const dataDir = await tempDirForTest();
    const at = (day: number) => `2026-02-${String(day).padStart(2, '0')}T00:00:00.000Z`;
    await seedBundle(dataDir, {
      tools: [
        { slug: 'fuzzy', displayName: 'Wether fuzzy', description: 'misspelt', modifiedAt: at(9) },
        { slug: 'word-old', displayName: 'Daily', description: 'the weather today', modifiedAt: at(1) },
        { slug: 'word-new', displayName: 'Hourly', description: 'weather by hour', modifiedAt: at(5) },
        { slug: 'weather-prefix-old', displayName: 'Alpha', modifiedAt: at(2) },
        { slug: 'zzz', displayName: 'Weather prefix new', modifiedAt: at(3) },
        { slug: 'unrelated', displayName: 'Stock quotes', modifiedAt: at(8) },
      ],
    });
    const { call } = await startTestCore({ dataDir });
    const ranked = slugs(await call('tools.search', { q: 'weather' })).filter((slug) => slug !== 'forecast' && slug !== 'geocode');
    expect(ranked).toEqual(['zzz', 'weather-prefix-old', 'word-new', 'word-old', 'fuzzy']);
  });

  it('is case-insensitive and treats an empty query as "everything, newest first"', async () => {
    const dataDir = await tempDirForTest();
    await seedBundle(dataDir, {
      tools: [
        { slug: 'older', displayName: 'Older', modifiedAt: '2030-01-01T00:00:00.000Z' },
        { slug: 'newer', displayName: 'Newer', modifiedAt: '2031-01-01T00:00:00.000Z' },
      ],
    });
    const { call } = await startTestCore({ dataDir });
    expect(slugs(await call('tools.search', { q: 'NEWER' }))[0]).toBe('newer');
    expect(slugs(await call('tools.search', { q: '' })).slice(0, 2)).toEqual(['newer', 'older']);
  });

  it('pages search results with every match once', async () => {
    const dataDir = await tempDirForTest();
    await seedBundle(dataDir, {
      tools: Array.from({ length: 120 }, (_, index) => ({ slug: `report-${index}`, displayName: `Report ${index}`, modifiedAt: '2026-01-01T00:00:00.000Z' })),
    });
    const { call } = await startTestCore({ dataDir });
    const everything = await call('tools.search', { q: 'report', pageSize: 500 });
    const { ids } = await walk((pageToken) => call('tools.search', { q: 'report', pageSize: 25, ...(pageToken ? { pageToken } : {}) }));
    expect(ids).toEqual(everything.tools.map((tool) => tool.toolID));
    expect(new Set(ids).size).toBe(ids.length);
  });
});

import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { v7 as uuidv7 } from 'uuid';
import { describe, expect, it } from 'vitest';
import type { CoreEvent } from '../../shared/events.js';
import type { ToolFile } from '../../shared/schemas/tool.js';
import { httpTool } from '../../testing/data/fixtures.js';
import { expectOk, invokeHarness } from '../../testing/harness/invoke-harness.js';
import { json, startLoopbackServer } from '../../testing/harness/loopback-server.js';
import { memorySource } from '../../testing/data/memory-source.js';
import { createLayout } from './layout.js';

const at = '2026-11-23T00:00:00.000Z';

function sourceTool(bundleID: string, slug: string, url: string): ToolFile {
  return {
    schemaVersion: '1', toolID: uuidv7(), bundleID, slug, version: 'mcp', displayName: `Remote ${slug}`, description: `Weather as ${slug}`, tags: [],
    type: 'http', isEnabled: true, isBuiltIn: false, argSchema: { type: 'object', properties: { city: { type: 'string' } } },
    impl: { method: 'GET', urlTemplate: url, query: { city: '${city}' } }, createdAt: at, modifiedAt: at,
  };
}

describe('read-only sources next to the files', () => {
  it('their tools are listed, searched, switched and invoked through the same operations, and edits are refused with source_readonly', async () => {
    const server = await startLoopbackServer({ '/weather': (request, response) => json(response, 200, { city: new URL(request.url, 'http://x').searchParams.get('city') }) });
    const h = await invokeHarness([server.host]);
    const events: CoreEvent[] = [];
    h.core.events.subscribe((event) => events.push(event));
    const bundleID = uuidv7();
    const remote = memorySource(createLayout(h.dataDir), { id: 'mcp:weather', bundleID, displayName: 'Weather server' });
    await h.core.store.sources.add(remote.source);
    remote.setTools([sourceTool(bundleID, 'get_weather', `${server.base}/weather`), sourceTool(bundleID, 'forecast.daily', `${server.base}/weather`)]);
    expect(events).toContainEqual(expect.objectContaining({ type: 'store.changed', bundleIDs: [bundleID] }));

    const [bundle] = (await h.call('bundles.list', { bundleIDs: [bundleID] })).bundles;
    expect(bundle).toMatchObject({ status: 'valid', displayName: 'Weather server', readOnly: true, toolCount: 2 });
    const listed = (await h.call('tools.list', { bundleIDs: [bundleID] })).tools.map((tool) => tool.slug);
    expect(listed.sort()).toEqual(['forecast.daily', 'get_weather']);
    expect((await h.call('tools.search', { q: 'get_wea' })).tools.map((tool) => tool.slug)).toContain('get_weather');
    const address = { bundleID, toolSlug: 'get_weather', version: 'mcp' };
    expect(await h.call('tools.get', address)).toMatchObject({ slug: 'get_weather', readOnly: true });
    expect(expectOk(await h.call('tools.invoke', { ...address, args: { city: 'Oslo' } })).value).toEqual({ city: 'Oslo' });

    // Switched like a built-in: the choice is kept in the source's switches file.
    await h.call('tools.patch', { ...address, isEnabled: false });
    expect((await h.failure('tools.invoke', { ...address, args: {} })).code).toBe('tool_disabled');
    expect(JSON.parse(await readFile(path.join(h.dataDir, 'mcp-weather-switches.json'), 'utf8'))).toMatchObject({ tools: { [(await h.call('tools.get', address)).toolID]: false } });

    for (const [operation, params] of [
      ['tools.put', { bundleID, toolSlug: 'mine', version: 'v1', tool: httpTool() }],
      ['tools.delete', address],
      ['bundles.delete', { bundleID }],
      ['bundles.put', { bundleID, slug: 'taken', displayName: 'Taken' }],
    ] as const) {
      const refused = await h.failure(operation, params);
      expect([refused.code, refused.httpStatus], operation).toEqual(['source_readonly', 403]);
      expect(refused.message).toContain('Weather server is read-only');
    }

    // Tools vanish when the source says so, and the source can go entirely.
    remote.setTools([sourceTool(bundleID, 'forecast.daily', `${server.base}/weather`)]);
    expect((await h.call('tools.list', { bundleIDs: [bundleID], includeDisabled: true })).tools.map((tool) => tool.slug)).toEqual(['forecast.daily']);
    expect((await h.failure('tools.get', address)).code).toBe('not_found');
    h.core.store.sources.remove('mcp:weather');
    expect((await h.call('bundles.list', { bundleIDs: [bundleID], includeDisabled: true })).bundles).toEqual([]);
  });

  it('people still write slugs without "_" or "." in their own bundles', async () => {
    const h = await invokeHarness([]);
    const refused = await h.failure('tools.put', { bundleID: h.bundleID, toolSlug: 'get_weather', version: 'v1', tool: httpTool() });
    expect(refused.code).toBe('invalid_params');
  });
});

import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { newID } from '../../testing/data/fixtures.js';
import { expectOk } from '../../testing/harness/invoke-harness.js';
import { json, startLoopbackServer } from '../../testing/harness/loopback-server.js';
import { startTestCore } from '../../testing/harness/test-core.js';
import { meantPattern } from './meant-pattern.js';

describe('patterns read as their authors meant them', () => {
  it('drops escapes that mean nothing, keeps every one that does, and leaves a pattern that cannot mean anything as written', () => {
    expect(meantPattern('^[a-zA-Z0-9_\\-\\:]+$')).toBe('^[a-zA-Z0-9_\\-:]+$');
    expect(meantPattern('^\\@\\#\\~[\\w\\s\\.\\-]+\\:\\d{2}$')).toBe('^@#~[\\w\\s\\.\\-]+:\\d{2}$');
    // Outside a class, "-" means itself: its escape is dropped; "\/" and "\." are kept.
    expect(meantPattern('^a\\-b\\/c\\.d$')).toBe('^a-b\\/c\\.d$');
    for (const valid of ['^\\d+$', '^\\u00e9\\p{L}+$', '^[\\[\\]]$', '^x$']) expect(meantPattern(valid)).toBe(valid);
    expect(meantPattern('^[z-a]\\:$')).toBe('^[z-a]\\:$');
  });

  it("imports DigitalOcean's description: its tag operations (whose pattern escapes a colon) become tools that take and check tag names", async () => {
    const core = await startTestCore();
    const api = await startLoopbackServer({
      '/v2/tags/env%3Aprod': (_request, response) => json(response, 200, { tag: { name: 'env:prod' } }),
      '/v2/tags/env%3Aprod/resources': (_request, response) => response.writeHead(204).end(),
    });
    const text = gunzipSync(await readFile(path.join(import.meta.dirname, 'fixtures/digitalocean.com.json.gz'))).toString('utf8');
    const bundleID = newID();
    const plan = await core.call('imports.openapiPreview', { source: { text }, bundleID, baseUrl: api.base });
    // None is left out: not for a pattern (five were), nor the ten DELETEs that send JSON (as DigitalOcean's clients do).
    expect(plan.operations.filter((operation) => operation.skipped).map((operation) => `${operation.key}: ${operation.skipped}`)).toEqual([]);
    const tagged = plan.operations.filter((operation) => JSON.stringify(operation.tool?.argSchema ?? {}).includes('a-zA-Z0-9_'));
    expect(tagged).toHaveLength(5);
    const get = plan.operations.find((operation) => operation.key === 'GET /v2/tags/{tag_id}')!;
    expect(get.tool!.argSchema).toMatchObject({ properties: { tag_id: { pattern: '^[a-zA-Z0-9_\\-:]+$' } } });

    const unassign = plan.operations.find((operation) => operation.key === 'DELETE /v2/tags/{tag_id}/resources')!;
    await core.call('imports.openapiApply', { previewId: plan.previewId, bundleID, baseUrl: api.base, operations: [get.key, unassign.key], allowHosts: plan.hosts });
    for (const { name } of plan.secrets) await core.call('secrets.put', { name, value: 'dop_v1_"quoted"' });
    expectOk(await core.call('tools.invoke', { bundleID, toolSlug: get.slug, version: 'v1', args: { tag_id: 'env:prod' } }));
    expect(api.seen.map((request) => decodeURIComponent(request.url))).toEqual(['/v2/tags/env:prod']);
    const refused = await core.failure('tools.invoke', { bundleID, toolSlug: get.slug, version: 'v1', args: { tag_id: 'bad tag!' } });
    expect(refused).toMatchObject({ code: 'invalid_args' });
    expect(api.seen).toHaveLength(1);

    // A DELETE that sends JSON: its fields are arguments, sent as the JSON body DigitalOcean reads.
    const resources = [{ resource_id: '9569411', resource_type: 'droplet' }];
    expectOk(await core.call('tools.invoke', { bundleID, toolSlug: unassign.slug, version: 'v1', args: { tag_id: 'env:prod', resources } }));
    const unassigned = api.seen[1]!;
    expect(unassigned.method).toBe('DELETE');
    expect(unassigned.headers['content-type']).toBe('application/json');
    expect(JSON.parse(unassigned.body.toString('utf8'))).toEqual({ resources });
  }, 60_000);
});

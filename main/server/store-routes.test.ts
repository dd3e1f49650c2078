import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CORE_BUNDLE as CORE, httpTool, newID } from '../../testing/data/fixtures.js';
import { startInProcessHost, type InProcessHost } from '../../testing/harness/in-process-host.js';
import { rawRequest } from '../../testing/harness/raw-request.js';

let subject: InProcessHost;
beforeAll(async () => {
  subject = await startInProcessHost();
});
afterAll(() => subject.stop());

const api = (method: string, route: string, body?: unknown): Promise<{ status: number; body: unknown }> => subject.request(method, `/api${route}`, body);

describe('store routes over HTTP', () => {
  it('PUT a bundle: 201 created, then 200 replaced; PATCH; DELETE 204 with no body', async () => {
    const bundleID = newID();
    expect((await api('PUT', `/tools/bundles/${bundleID}`, { slug: 'b', displayName: 'B' })).status).toBe(201);
    const replaced = await api('PUT', `/tools/bundles/${bundleID}`, { slug: 'b', displayName: 'B2', description: 'd' });
    expect(replaced).toMatchObject({ status: 200, body: { displayName: 'B2', description: 'd' } });
    expect(await api('PATCH', `/tools/bundles/${bundleID}`, { isEnabled: false })).toMatchObject({ status: 200, body: { isEnabled: false } });
    expect(await api('DELETE', `/tools/bundles/${bundleID}`)).toEqual({ status: 204, body: null });
    expect((await api('DELETE', `/tools/bundles/${bundleID}`)).status).toBe(404);
  });

  it('PUT a script tool without argSchema: 201 with the schema its function gives; any other type without one: 400 saying so', async () => {
    const bundleID = newID();
    await api('PUT', `/tools/bundles/${bundleID}`, { slug: 'scripts', displayName: 'Scripts' });
    const source = '/** Adds.\n * @param a The first. */\nexport default function (a: number, b = 1): number { return a + b; }';
    const created = await api('PUT', `/tools/bundles/${bundleID}/tools/add/version/v1`, { displayName: 'Add', type: 'script', impl: { language: 'typescript', source } });
    expect(created).toMatchObject({ status: 201, body: { description: 'Adds.', argSchema: { type: 'object', properties: { a: { type: 'number' }, b: { default: 1 } }, required: ['a'] } } });
    const { argSchema: _left, ...withoutSchema } = httpTool();
    const refused = await api('PUT', `/tools/bundles/${bundleID}/tools/plain/version/v1`, withoutSchema);
    expect(refused).toMatchObject({ status: 400, body: { error: { code: 'invalid_params', message: expect.stringContaining('argSchema is missing: a tool of type "http" needs one') as unknown } } });
    expect((await api('GET', `/tools/bundles/${bundleID}/tools/plain/version/v1`)).status).toBe(404);
  });

  it('lists bundles with query parameters as the right types', async () => {
    const first = newID();
    const second = newID();
    await api('PUT', `/tools/bundles/${first}`, { slug: 'x', displayName: 'X', isEnabled: false });
    await api('PUT', `/tools/bundles/${second}`, { slug: 'y', displayName: 'Y' });
    const page = await api('GET', `/tools/bundles?bundleIDs=${first},${second}&includeDisabled=true&pageSize=1`);
    expect(page.status).toBe(200);
    const body = page.body as { bundles: { bundleID: string }[]; nextPageToken: string };
    expect(body.bundles.map((bundle) => bundle.bundleID)).toEqual([first]);
    const next = await api('GET', `/tools/bundles?bundleIDs=${first},${second}&includeDisabled=true&pageSize=1&pageToken=${body.nextPageToken}`);
    expect((next.body as { bundles: { bundleID: string }[] }).bundles.map((bundle) => bundle.bundleID)).toEqual([second]);
    expect((await api('GET', '/tools/bundles?pageSize=0')).status).toBe(400);
    expect((await api('GET', '/tools/bundles?includeDisabled=perhaps')).status).toBe(400);
  });

  it('PUT a tool: 201, a duplicate 409 with the error body, GET it, search it', async () => {
    const bundleID = newID();
    await api('PUT', `/tools/bundles/${bundleID}`, { slug: 'b', displayName: 'B' });
    const route = `/tools/bundles/${bundleID}/tools/${encodeURIComponent('météo')}/version/v1`;
    const created = await api('PUT', route, httpTool({ displayName: 'Météo locale' }));
    expect(created).toMatchObject({ status: 201, body: { slug: 'météo', version: 'v1' } });
    const duplicate = await api('PUT', route, httpTool());
    expect(duplicate).toMatchObject({ status: 409, body: { error: { code: 'conflict' } } });
    expect(await api('GET', route)).toMatchObject({ status: 200, body: { displayName: 'Météo locale', usage: { callCount: 0 } } });
    const search = await api('GET', `/tools/tools/search?q=${encodeURIComponent('météo')}`);
    expect((search.body as { tools: { slug: string }[] }).tools[0]?.slug).toBe('météo');
    expect(await api('PATCH', route, { isEnabled: false })).toMatchObject({ status: 200, body: { isEnabled: false } });
    expect((await api('PATCH', route, { isEnabled: true, displayName: 'no' })).status).toBe(400);
    expect((await api('DELETE', route)).status).toBe(204);
    expect((await api('GET', route)).status).toBe(404);
  });

  it('maps store rules to statuses: 400 bad slug or version, 403 built-in, 409 disabled bundle', async () => {
    const bundleID = newID();
    await api('PUT', `/tools/bundles/${bundleID}`, { slug: 'b', displayName: 'B', isEnabled: false });
    expect((await api('PUT', `/tools/bundles/${bundleID}/tools/bad_slug/version/v1`, httpTool())).status).toBe(400);
    expect((await api('PUT', `/tools/bundles/${bundleID}/tools/ok/version/v1`, httpTool())).body).toMatchObject({
      error: { code: 'bundle_disabled' },
    });
    expect((await api('PUT', `/tools/bundles/${CORE}/tools/new/version/v1`, httpTool())).status).toBe(403);
    expect((await api('DELETE', `/tools/bundles/${CORE}`)).status).toBe(403);
    expect((await api('PUT', `/tools/bundles/not-a-uuid`, { slug: 'b', displayName: 'B' })).status).toBe(400);
  });

  it('refuses a version of ".." sent raw, without URL normalisation', async () => {
    const bundleID = newID();
    await api('PUT', `/tools/bundles/${bundleID}`, { slug: 'b', displayName: 'B' });
    const response = await rawRequest(`${subject.base}/api/tools/bundles/${bundleID}/tools/x/version/..`, {
      method: 'PUT',
      headers: { ...subject.authorization, 'Content-Type': 'application/json' },
      body: JSON.stringify(httpTool()),
    });
    expect(response.status).toBe(400);
    expect(JSON.parse(response.body)).toMatchObject({ error: { code: 'invalid_params' } });
  });
});

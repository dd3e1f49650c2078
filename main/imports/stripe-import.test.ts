import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { newID } from '../../testing/data/fixtures.js';
import { expectOk } from '../../testing/harness/invoke-harness.js';
import { json, startLoopbackServer } from '../../testing/harness/loopback-server.js';
import { startTestCore } from '../../testing/harness/test-core.js';

// Stripe's description declares form bodies on GET and DELETE (empty on its lists; fields on seven deletes); its own
// libraries send those fields in the query string. Imported so, Stripe's API comes in whole.
describe("OpenAPI import: Stripe's description", () => {
  it('imports every operation; a GET or DELETE form goes in the query string, as Stripe’s libraries send it, and the preview says so', async () => {
    const core = await startTestCore();
    const api = await startLoopbackServer({
      '/v1/customers': (_request, response) => json(response, 200, { object: 'list', data: [] }),
      '/v1/subscriptions/sub_1': (_request, response) => json(response, 200, { id: 'sub_1', status: 'canceled' }),
    });
    const text = gunzipSync(await readFile(path.join(import.meta.dirname, 'fixtures/stripe.com.json.gz'))).toString('utf8');
    const bundleID = newID();
    const read = { bundleID, baseUrl: api.base };
    const plan = await core.call('imports.openapiPreview', { source: { text }, ...read });
    expect(plan.operations).toHaveLength(452);
    expect(plan.operations.filter((operation) => operation.skipped).map((operation) => `${operation.key}: ${operation.skipped}`)).toEqual([]);

    const list = plan.operations.find((operation) => operation.key === 'GET /v1/customers')!;
    // Its form has no fields: nothing is sent for it, and nothing needs saying.
    expect(list.note).toBeUndefined();
    expect(list.tool!.impl).not.toHaveProperty('body');
    const cancel = plan.operations.find((operation) => operation.key === 'DELETE /v1/subscriptions/{subscription_exposed_id}')!;
    expect(cancel.note).toMatch(/form fields are sent in the query string/);
    expect(Object.keys((cancel.tool!.argSchema as { properties: object }).properties)).toEqual(expect.arrayContaining(['subscription_exposed_id', 'cancellation_details', 'expand', 'invoice_now', 'prorate']));
    expect(plan.operations.filter((operation) => operation.note)).toHaveLength(7);
    // A large public API: an answer that drifts from its description is taken with a warning, as the preview says.
    expect(plan.bundle.http?.outputMismatch).toBe('warn');
    expect(plan.notes).toContainEqual(expect.stringContaining('This API has 452 operations: an answer that does not match the schema its description gives is taken with a warning'));

    await core.call('imports.openapiApply', { previewId: plan.previewId, ...read, operations: [list.key, cancel.key], allowHosts: plan.hosts });
    // Stripe's first scheme is basic auth: the key as the user name (its password is unused, but a secret like any).
    for (const { name } of plan.secrets) await core.call('secrets.put', { name, value: 'sk_test_"quoted"' });
    expectOk(await core.call('tools.invoke', { bundleID, toolSlug: list.slug, version: 'v1', args: { limit: 3 } }));
    const listed = api.requestsTo('/v1/customers')[0]!;
    expect(listed).toMatchObject({ method: 'GET', url: '/v1/customers?limit=3' });
    expect(listed.headers['content-type']).toBeUndefined();
    expect(listed.body.length).toBe(0);
    // Its filters are deepObject parameters: a range as created[gt], a list as expand[] (as Stripe reads them, not JSON).
    expectOk(await core.call('tools.invoke', { bundleID, toolSlug: list.slug, version: 'v1', args: { created: { gt: 1700000000, lte: 1800000000 }, expand: ['data.default_source', 'data.tax'], limit: 3 } }));
    expect(api.requestsTo('/v1/customers')[1]!.url).toBe('/v1/customers?created[gt]=1700000000&created[lte]=1800000000&expand[]=data.default_source&expand[]=data.tax&limit=3');
    // The same filter given as one timestamp (its other form) is the plain parameter.
    expectOk(await core.call('tools.invoke', { bundleID, toolSlug: list.slug, version: 'v1', args: { created: 1700000000 } }));
    expect(api.requestsTo('/v1/customers')[2]!.url).toBe('/v1/customers?created=1700000000');

    const canceled = expectOk(
      await core.call('tools.invoke', {
        bundleID,
        toolSlug: cancel.slug,
        version: 'v1',
        args: { subscription_exposed_id: 'sub_1', cancellation_details: { comment: 'too dear & slow', feedback: 'too_expensive' }, expand: ['latest_invoice'], invoice_now: true },
      }),
    );
    expect(canceled.value).toEqual({ id: 'sub_1', status: 'canceled' });
    const deleted = api.requestsTo('/v1/subscriptions/sub_1')[0]!;
    expect(deleted.method).toBe('DELETE');
    expect(new URL(deleted.url, api.base).search).toBe('?cancellation_details%5Bcomment%5D=too+dear+%26+slow&cancellation_details%5Bfeedback%5D=too_expensive&expand%5B%5D=latest_invoice&invoice_now=true');
    expect(deleted.headers['content-type']).toBeUndefined();
    expect(deleted.body.length).toBe(0);
  }, 120_000);

  it('a hand-written GET may send form fields (in its query), never a JSON body', async () => {
    const core = await startTestCore();
    const tool = (impl: object) => ({ displayName: 'List', type: 'http', argSchema: { type: 'object', properties: { limit: { type: 'integer' } } }, impl: { method: 'GET', urlTemplate: 'https://api.example.com/v1/items', ...impl } });
    const form = await core.call('tools.validate', { tool: tool({ body: { limit: '${limit}' }, headers: { 'Content-Type': 'application/x-www-form-urlencoded' } }) });
    expect(form.issues).toEqual([]);
    const jsonBody = await core.call('tools.validate', { tool: tool({ body: { limit: '${limit}' } }) });
    expect(jsonBody.issues).toEqual([{ path: '/impl/method', message: expect.stringContaining('GET requests carry no body') as unknown }]);
    // A DELETE may carry a JSON body (DigitalOcean's do).
    const deleteWithJson = await core.call('tools.validate', { tool: { ...tool({ body: { limit: '${limit}' } }), impl: { method: 'DELETE', urlTemplate: 'https://api.example.com/v1/items', body: { limit: '${limit}' } } } });
    expect(deleteWithJson.issues).toEqual([]);
  });
});

import { describe, expect, it } from 'vitest';
import { zipSync, strToU8, unzipSync } from 'fflate';
import { newID } from '../../testing/data/fixtures.js';
import { expectError, expectOk } from '../../testing/harness/invoke-harness.js';
import { json, startLoopbackServer } from '../../testing/harness/loopback-server.js';
import { startTestCore, type TestCore } from '../../testing/harness/test-core.js';

const PERSON_TOKEN = 'ghp_person"s-own-token';

/** An API that records what it is sent: the attacker's host, or the real one. */
async function startApi() {
  const seen: string[] = [];
  const server = await startLoopbackServer({
    '/v1/items': (request, response) => {
      seen.push(JSON.stringify({ headers: request.headers, url: request.url }));
      json(response, 200, { items: [] });
    },
  });
  return { server, seen };
}

/** A description whose API key scheme asks for a secret by the name the converter gives `title` + `api key`. */
const description = (title: string, base: string) =>
  JSON.stringify({
    openapi: '3.0.3',
    info: { title, version: '1' },
    servers: [{ url: `${base}/v1` }],
    components: { securitySchemes: { api_key: { type: 'apiKey', in: 'header', name: 'X-Api-Key' } } },
    security: [{ api_key: [] }],
    paths: { '/items': { get: { operationId: 'listItems', responses: { 200: { description: 'ok' } } } } },
  });

const invoke = (core: TestCore, bundleID: string, toolSlug: string) => core.call('tools.invoke', { bundleID, toolSlug, version: 'v1', args: {} });

describe('imports bind to what the person confirms', () => {
  it('an API titled like a provider gets a secret of its own name, never the provider key', async () => {
    const { server, seen } = await startApi();
    const core = await startTestCore();
    await core.call('providers.put', { id: 'openai', kind: 'openai', displayName: 'OpenAI', apiKey: 'sk-provider-key' });
    const text = description('PROVIDER OPENAI', server.base);
    const plan = await core.call('imports.openapiPreview', { source: { text } });
    expect(plan.secrets.map((secret) => [secret.name, secret.isSet])).toEqual([['API_PROVIDER_OPENAI_API_KEY', false]]);
    const bundleID = newID();
    await core.call('imports.openapiApply', { source: { text }, bundleID, operations: ['GET /items'], allowHosts: plan.hosts });
    expectError(await invoke(core, bundleID, 'list-items'), 'missing_secret');
    expect(seen).toEqual([]);
  });

  it('a secret the person already has is used only when they say so; otherwise the bundle gets its own name', async () => {
    const { server, seen } = await startApi();
    const core = await startTestCore();
    await core.call('secrets.put', { name: 'GITHUB_API_KEY', value: PERSON_TOKEN });
    const text = description('GitHub', server.base);
    const plan = await core.call('imports.openapiPreview', { source: { text } });
    expect(plan.secrets).toEqual([expect.objectContaining({ name: 'GITHUB_API_KEY', isSet: true, ownName: 'GITHUB_API_KEY_2' })]);
    expect(plan.bundle.http?.auth).toMatchObject({ value: '${secret.GITHUB_API_KEY_2}' });

    // Not confirmed: the tools name a secret of their own, which is not set, so nothing is sent.
    const unconfirmed = newID();
    await core.call('imports.openapiApply', { source: { text }, bundleID: unconfirmed, operations: ['GET /items'], allowHosts: plan.hosts });
    expect(expectError(await invoke(core, unconfirmed, 'list-items'), 'missing_secret').message).toContain('GITHUB_API_KEY_2');
    expect(seen).toEqual([]);
    // A re-import of that bundle keeps its own name: nothing changed.
    const again = await core.call('imports.openapiPreview', { source: { text }, bundleID: unconfirmed });
    expect(again.operations.map((operation) => operation.status)).toEqual(['same']);

    // Confirmed: the person's secret is sent.
    const confirmed = newID();
    await core.call('imports.openapiApply', { source: { text }, bundleID: confirmed, operations: ['GET /items'], allowHosts: plan.hosts, useSecrets: ['GITHUB_API_KEY'] });
    expectOk(await invoke(core, confirmed, 'list-items'));
    expect(JSON.parse(seen[0]!)).toMatchObject({ headers: { 'x-api-key': PERSON_TOKEN } });
  });

  it('the hosts an import brings are allowed only when the person confirms them', async () => {
    const { server, seen } = await startApi();
    const core = await startTestCore();
    const text = description('Items', server.base);
    const plan = await core.call('imports.openapiPreview', { source: { text } });
    expect(plan.hosts).toEqual([server.host]);
    await core.call('secrets.put', { name: 'ITEMS_API_KEY', value: 'k' });
    const unconfirmed = newID();
    await core.call('imports.openapiApply', { source: { text }, bundleID: unconfirmed, operations: ['GET /items'], useSecrets: ['ITEMS_API_KEY'] });
    const { bundles } = await core.call('bundles.list', { bundleIDs: [unconfirmed] });
    expect(bundles[0]).not.toHaveProperty('http.allowedHosts');
    expectError(await invoke(core, unconfirmed, 'list-items'), 'host_not_allowed');
    expect(seen).toEqual([]);
  });

  it('a shared ZIP gets the same: its tools’ names for secrets the person has are renamed unless confirmed, its hosts allowed only when confirmed', async () => {
    const { server, seen } = await startApi();
    const source = await startTestCore();
    const bundleID = newID();
    await source.call('bundles.put', { bundleID, slug: 'items', displayName: 'Items', http: { baseUrl: `${server.base}/v1`, allowedHosts: [server.host] } });
    // One header names the secret outright, one by a bare name: both mean the person's MY_TOKEN.
    await source.call('tools.put', { bundleID, toolSlug: 'list', version: 'v1', tool: { displayName: 'List', type: 'http', argSchema: { type: 'object', properties: {} }, impl: { method: 'GET', urlTemplate: '/items', headers: { 'X-A': '${secret.MY_TOKEN}', 'X-B': 'Bearer ${MY_TOKEN}' } } } });
    const { base64 } = await source.call('bundles.export', { bundleID });

    const target = await startTestCore();
    await target.call('secrets.put', { name: 'MY_TOKEN', value: PERSON_TOKEN });
    const preview = await target.call('bundles.importArchive', { base64, bundleID: newID() });
    expect(preview.secrets).toEqual([{ name: 'MY_TOKEN', isSet: true, ownName: 'MY_TOKEN_2' }]);
    expect(preview.hosts).toEqual([server.host]);

    const unconfirmed = newID();
    await target.call('bundles.importArchive', { base64, bundleID: unconfirmed, apply: true });
    const written = await target.call('tools.get', { bundleID: unconfirmed, toolSlug: 'list', version: 'v1' });
    expect(written).toMatchObject({ impl: { headers: { 'X-A': '${secret.MY_TOKEN_2}', 'X-B': 'Bearer ${secret.MY_TOKEN_2}' } } });
    expectError(await invoke(target, unconfirmed, 'list'), 'missing_secret');
    const secretOnly = newID();
    await target.call('bundles.importArchive', { base64, bundleID: secretOnly, apply: true, useSecrets: ['MY_TOKEN'] });
    expectError(await invoke(target, secretOnly, 'list'), 'host_not_allowed');

    const confirmed = newID();
    await target.call('bundles.importArchive', { base64, bundleID: confirmed, apply: true, useSecrets: ['MY_TOKEN'], allowHosts: [server.host] });
    expect(seen).toEqual([]);
    expectOk(await invoke(target, confirmed, 'list'));
    expect(JSON.parse(seen[0]!)).toMatchObject({ headers: { 'x-a': PERSON_TOKEN, 'x-b': `Bearer ${PERSON_TOKEN}` } });
    // The manifest is only a summary: a ZIP that leaves a name out of it is read from its files all the same.
    const files = unzipSync(Buffer.from(base64, 'base64'));
    files['manifest.json'] = strToU8(JSON.stringify({ ...JSON.parse(new TextDecoder().decode(files['manifest.json'])), secrets: [] }));
    const edited = await target.call('bundles.importArchive', { base64: Buffer.from(zipSync(files)).toString('base64'), bundleID: newID() });
    expect(edited.secrets).toEqual([{ name: 'MY_TOKEN', isSet: true, ownName: 'MY_TOKEN_2' }]);
  });
});

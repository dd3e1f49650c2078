import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { newID } from '../../testing/data/fixtures.js';
import { expectOk } from '../../testing/harness/invoke-harness.js';
import { startSpecExampleServer } from '../../testing/servers/spec-example-server.js';
import { startTestCore } from '../../testing/harness/test-core.js';
import { loadOpenApi } from './openapi-source.js';

const fixture = (name: string) => readFile(path.join(import.meta.dirname, 'fixtures', name), 'utf8');

/** Every auth of the collection (its own and each request's) replaced. */
function withAuth(value: unknown, auth: Record<string, unknown>): unknown {
  if (Array.isArray(value)) return value.map((item) => withAuth(item, auth));
  if (!value || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, key === 'auth' ? auth : withAuth(item, auth)]));
}

describe('Postman collection import', () => {
  it('turns a collection (made by Postman’s own converter) into tools: folders as tags, {{baseUrl}} as the base URL, :ids, query and body as arguments, its OAuth as a browser sign-in with the client ID as a secret', async () => {
    const core = await startTestCore();
    const text = await fixture('train-travel.postman_collection.json');
    const plan = await core.call('imports.openapiPreview', { source: { text } });
    expect(plan.format).toBe('Postman collection v2.1');
    expect(plan.bundle).toMatchObject({ slug: 'train-travel-api', displayName: 'Train Travel API', http: { baseUrl: 'https://api.example.com', allowedHosts: ['api.example.com'] } });
    expect(plan.operations.map((operation) => [operation.key, operation.slug, operation.tags])).toEqual([
      ['GET /stations', 'get-a-list-of-train-stations', ['Stations']],
      ['GET /trips', 'get-available-train-trips', ['Trips']],
      ['GET /bookings', 'list-existing-bookings', ['Bookings']],
      ['POST /bookings', 'create-a-booking', ['Bookings']],
      ['GET /bookings/:bookingId', 'get-a-booking', ['Bookings']],
      ['DELETE /bookings/:bookingId', 'delete-a-booking', ['Bookings']],
      ['POST /bookings/:bookingId/payment', 'pay-for-a-booking', ['Payments']],
    ]);
    const byKey = new Map(plan.operations.map((operation) => [operation.key, operation]));
    expect(byKey.get('GET /bookings/:bookingId')!.tool).toMatchObject({ impl: { method: 'GET', urlTemplate: '/bookings/${bookingId}' }, argSchema: { required: ['bookingId'] } });
    expect(byKey.get('GET /trips')!.tool!.argSchema).toMatchObject({ properties: { origin: { type: 'string' }, dogs: { type: 'string' } }, required: ['origin', 'destination', 'date'] });
    expect(byKey.get('POST /bookings')!.tool).toMatchObject({ requiresApproval: true, impl: { body: { trip_id: '${trip_id}', passenger_name: '${passenger_name}' } } });
    // The collection's auth is the bundle's; a request with the same auth inherits it.
    expect(plan.bundle.http?.auth).toEqual({
      kind: 'oauth2',
      flow: 'authorizationCode',
      authorizationUrl: 'https://example.com/oauth/authorize',
      tokenUrl: 'https://example.com/oauth/token',
      clientId: '${secret.TRAIN_TRAVEL_API_CLIENT_ID}',
      scope: 'read write',
    });
    expect((byKey.get('POST /bookings')!.tool!.impl as { auth?: unknown }).auth).toBeUndefined();
    expect(plan.secrets.map((secret) => secret.name)).toEqual(['TRAIN_TRAVEL_API_CLIENT_ID']);
    expect(plan.notes.join(' ')).toMatch(/signs in in the browser \(OAuth 2 authorization code\): register an app/);
  });

  it('an OAuth 2 grant Toolbelt cannot run itself (password) becomes a bearer token from a secret, and says so', async () => {
    const core = await startTestCore();
    const collection = JSON.parse(await fixture('train-travel.postman_collection.json')) as Record<string, unknown>;
    const plan = await core.call('imports.openapiPreview', { source: { text: JSON.stringify(withAuth(collection, { type: 'oauth2', oauth2: [{ key: 'grant_type', value: 'password_credentials' }] })) } });
    expect(plan.bundle.http?.auth).toEqual({ kind: 'bearer', token: '${secret.TRAIN_TRAVEL_API_TOKEN}' });
    expect(plan.notes.join(' ')).toMatch(/OAuth 2 \(password_credentials, which Toolbelt cannot run itself\)/);
  });

  it('a form-encoded request (as Slack’s and Twilio’s collections have) becomes a tool whose fields are arguments, sent as a form', async () => {
    const core = await startTestCore();
    const collection = {
      info: { name: 'Chat API', schema: 'https://schema.getpostman.com/json/collection/v2.1.0/collection.json' },
      item: [
        {
          name: 'Post a message',
          request: {
            method: 'POST',
            url: { raw: 'https://chat.example/api/chat.postMessage', protocol: 'https', host: ['chat', 'example'], path: ['api', 'chat.postMessage'] },
            body: { mode: 'urlencoded', urlencoded: [{ key: 'channel', value: 'C1' }, { key: 'text', value: 'hi' }, { key: 'old', value: 'x', disabled: true }] },
          },
        },
      ],
    };
    const plan = await core.call('imports.openapiPreview', { source: { text: JSON.stringify(collection) } });
    const [operation] = plan.operations;
    expect(operation!.skipped).toBeUndefined();
    expect(operation!.tool!.impl).toMatchObject({ body: { channel: '${channel}', text: '${text}' }, headers: { 'Content-Type': 'application/x-www-form-urlencoded' } });
    expect(Object.keys((operation!.tool!.impl as { body: object }).body)).toEqual(['channel', 'text']);
  });

  it('a GET with form fields keeps them (they are sent in its query); a GET with a JSON body is listed as one that cannot be a tool', async () => {
    const core = await startTestCore();
    const url = { raw: 'https://chat.example/api/history', protocol: 'https', host: ['chat', 'example'], path: ['api', 'history'] };
    const collection = {
      info: { name: 'Chat API', schema: 'https://schema.getpostman.com/json/collection/v2.1.0/collection.json' },
      item: [
        { name: 'History', request: { method: 'GET', url, body: { mode: 'urlencoded', urlencoded: [{ key: 'channel', value: 'C1' }] } } },
        { name: 'Search', request: { method: 'GET', url, body: { mode: 'raw', raw: '{"q":"x"}', options: { raw: { language: 'json' } } } } },
      ],
    };
    const plan = await core.call('imports.openapiPreview', { source: { text: JSON.stringify(collection) } });
    const [form, jsonBody] = plan.operations;
    expect(form!.tool!.impl).toMatchObject({ method: 'GET', body: { channel: '${channel}' } });
    expect(jsonBody!.skipped).toMatch(/sends a body with GET/);
  });

  it('two requests to the same method and path are two tools, and a query key given twice is sent twice', async () => {
    const core = await startTestCore();
    const listing = (name: string, query: { key: string; value: string }[]) => ({
      name,
      request: { method: 'GET', url: { raw: 'https://shop.example/orders', protocol: 'https', host: ['shop', 'example'], path: ['orders'], query } },
    });
    const collection = {
      info: { name: 'Shop', schema: 'https://schema.getpostman.com/json/collection/v2.1.0/collection.json' },
      item: [listing('Open orders', [{ key: 'status', value: 'open' }]), listing('Open or held orders', [{ key: 'status', value: 'open' }, { key: 'status', value: 'held' }])],
    };
    const text = JSON.stringify(collection);
    const plan = await core.call('imports.openapiPreview', { source: { text } });
    expect(plan.operations.map((operation) => operation.key)).toEqual(['GET /orders', 'GET /orders #2']);
    expect(plan.operations[1]!.tool!.impl).toMatchObject({ query: { status: ['${status}', '${status_2}'] } });
    const bundleID = newID();
    const result = await core.call('imports.openapiApply', { source: { text }, bundleID, operations: plan.operations.map((operation) => operation.key) });
    expect(result.written).toHaveLength(2);
  });

  it('writes the collection’s requests as tools that run against the API’s own examples', async () => {
    const core = await startTestCore();
    const { doc } = await loadOpenApi({ text: await fixture('train-travel-3.1.json') }, []);
    const api = await startSpecExampleServer(doc);
    onTestFinished(api.close);
    // Signed in with a token of one's own: the collection's OAuth set to a bearer token.
    const collection = JSON.parse(await fixture('train-travel.postman_collection.json')) as Record<string, unknown>;
    const text = JSON.stringify(withAuth(collection, { type: 'bearer', bearer: [{ key: 'token', value: '{{token}}' }] }));
    const bundleID = newID();
    await core.call('secrets.put', { name: 'TRAIN_TRAVEL_API_TOKEN', value: 'token' });
    const plan = await core.call('imports.openapiPreview', { source: { text }, bundleID, baseUrl: api.base });
    // The token is set already: the person lets the import use it, and allows the API's host.
    expect(plan.secrets).toEqual([expect.objectContaining({ name: 'TRAIN_TRAVEL_API_TOKEN', isSet: true, ownName: 'TRAIN_TRAVEL_API_TOKEN_2' })]);
    await core.call('imports.openapiApply', { source: { text }, bundleID, baseUrl: api.base, operations: plan.operations.filter((operation) => operation.tool).map((operation) => operation.key), useSecrets: ['TRAIN_TRAVEL_API_TOKEN'], allowHosts: plan.hosts });
    const booking = expectOk(await core.call('tools.invoke', { bundleID, toolSlug: 'get-a-booking', version: 'v1', args: { bookingId: '1725ff48-ab45-4bb5-9d02-88745177dedb' } }));
    expect(booking.value).toMatchObject({ passenger_name: expect.any(String) as unknown });
    expect(api.seen.at(-1)!.url).toBe('/bookings/1725ff48-ab45-4bb5-9d02-88745177dedb');
  });
});

import { spawnSync } from 'node:child_process';
import { mkdir, readdir, readFile, utimes } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import type { ImportPreview, ImportResult } from '../../shared/schemas/imports.js';
import type { ToolView } from '../../shared/schemas/tool.js';
import { newID } from '../../testing/data/fixtures.js';
import { json, startLoopbackServer } from '../../testing/harness/loopback-server.js';
import { startSpecExampleServer } from '../../testing/servers/spec-example-server.js';
import { manualClock, startTestCore, type TestCore } from '../../testing/harness/test-core.js';
import { expectOk } from '../../testing/harness/invoke-harness.js';
import { clearAbandonedStaging } from '../store/staged-bundle.js';
import { loadOpenApi } from './openapi-source.js';

const STATION_A = 'efdbb9d1-02c2-4bc3-afb7-6788d8782b1e';
const STATION_B = 'b2e783e1-c824-4d63-b37a-d8d698862f1d';
const fixture = (name: string) => readFile(path.join(import.meta.dirname, 'fixtures', name), 'utf8');

type PreviewParams = { source: { text: string } | { url: string }; bundleID?: string; baseUrl?: string; useSecrets?: string[]; allowHosts?: string[] };

const preview = (core: TestCore, params: PreviewParams): Promise<ImportPreview> => core.call('imports.openapiPreview', params);
type ApplyParams = Omit<PreviewParams, 'source'> & { source?: PreviewParams['source']; previewId?: string; bundleID: string; operations: string[] };
const apply = (core: TestCore, params: ApplyParams): Promise<ImportResult> => core.call('imports.openapiApply', params);

async function toolsOf(core: TestCore, bundleID: string): Promise<ToolView[]> {
  return ((await core.call('tools.list', { bundleIDs: [bundleID], includeDisabled: true, recommendedPageSize: 500 })) as { tools: ToolView[] }).tools;
}

describe('OpenAPI import: the preview', () => {
  it('turns the Petstore 3.0 (YAML) into one tool per operation, with its arguments, auth and answer schema', async () => {
    const core = await startTestCore();
    const plan = await preview(core, { source: { text: await fixture('petstore-3.0.yaml') } });
    expect(plan.format).toBe('OpenAPI 3.0.0');
    expect(plan.bundle).toMatchObject({ slug: 'swagger-petstore', displayName: 'Swagger Petstore', http: { baseUrl: 'http://petstore.swagger.io/v2', allowedHosts: ['petstore.swagger.io'] } });
    expect(plan.operations).toHaveLength(20);
    expect(new Set(plan.operations.map((operation) => operation.slug)).size).toBe(20);
    expect(plan.secrets.map((secret) => [secret.name, secret.isSet])).toEqual([
      ['SWAGGER_PETSTORE_PETSTORE_AUTH_TOKEN', false],
      ['SWAGGER_PETSTORE_API_KEY', false],
    ]);
    // Its OAuth is the implicit flow, which Toolbelt does not run: a token from a secret.
    expect(plan.notes.join(' ')).toMatch(/OAuth 2 \(a flow Toolbelt cannot run itself\): its tools send the token/);

    const byKey = new Map(plan.operations.map((operation) => [operation.key, operation]));
    const getPet = byKey.get('GET /pet/{petId}')!;
    expect(getPet).toMatchObject({ slug: 'get-pet-by-id', operationId: 'getPetById', displayName: 'Find pet by ID', tags: ['pet'], status: 'new' });
    expect(getPet.tool!.impl).toEqual({ method: 'GET', urlTemplate: '/pet/${petId}', auth: { kind: 'apiKey', location: 'header', name: 'api_key', value: '${secret.SWAGGER_PETSTORE_API_KEY}' } });
    expect(getPet.tool!.argSchema).toMatchObject({ type: 'object', properties: { petId: { type: 'integer', format: 'int64' } }, required: ['petId'], additionalProperties: false });
    expect(getPet.tool!.outputSchema).toMatchObject({ type: 'object', required: ['name', 'photoUrls'] });
    expect(getPet.tool!.requiresApproval).toBeUndefined();

    // An object body is one argument per field; writes ask before they run.
    const addPet = byKey.get('POST /pet')!;
    expect(addPet.tool).toMatchObject({ requiresApproval: true, argSchema: { required: ['name', 'photoUrls'] } });
    expect(Object.keys((addPet.tool!.impl as { body: object }).body)).toEqual(['id', 'category', 'name', 'photoUrls', 'tags', 'status']);
    // A list body is the argument "body", sent as it is.
    expect(byKey.get('POST /user/createWithArray')!.tool!.impl).toMatchObject({ bodyTemplate: '${body}', headers: { 'Content-Type': 'application/json' } });
    // A form-encoded body (Stripe, Slack and Twilio take nothing else): one argument per field, sent as a form.
    expect(byKey.get('POST /pet/{petId}')!.tool!.impl).toMatchObject({ body: { name: '${name}', status: '${status}' }, headers: { 'Content-Type': 'application/x-www-form-urlencoded' } });
  });

  it('previews a tool the store would refuse (a pattern that means nothing even read leniently) as skipped, with why, and imports the rest', async () => {
    const core = await startTestCore();
    const description = {
      openapi: '3.0.3',
      info: { title: 'Droplets', version: '1' },
      servers: [{ url: 'https://api.droplets.example/v2' }],
      paths: {
        '/tags/{tag_id}': { get: { operationId: 'tags_get', parameters: [{ name: 'tag_id', in: 'path', required: true, schema: { type: 'string', pattern: '^[z-a]+$' } }], responses: { '200': { description: 'A tag' } } } },
        '/sizes': { get: { operationId: 'sizes_list', responses: { '200': { description: 'Sizes' } } } },
        // Two answers of one component whose pattern means nothing: each tool that would take it is refused, and says where.
        '/regions': { get: { operationId: 'regions_list', responses: { '200': { description: 'Regions', content: { 'application/json': { schema: { $ref: '#/components/schemas/Region' } } } } } } },
        '/regions/{slug}': {
          get: { operationId: 'regions_get', parameters: [{ name: 'slug', in: 'path', required: true, schema: { type: 'string' } }], responses: { '200': { description: 'A region', content: { 'application/json': { schema: { $ref: '#/components/schemas/Region' } } } } } },
        },
      },
      components: { schemas: { Region: { type: 'object', properties: { slug: { type: 'string', pattern: '^[z-a]+$' } } } } },
    };
    const text = JSON.stringify(description);
    const bundleID = newID();
    const plan = await preview(core, { source: { text }, bundleID });
    const [tag, sizes, regions, region] = plan.operations;
    expect(tag!.tool).toBeUndefined();
    expect(tag!.skipped).toMatch(/^its definition would be refused \(.*pattern/);
    expect(sizes!.tool).toBeDefined();
    for (const refused of [regions, region]) {
      expect(refused!.tool).toBeUndefined();
      expect(refused!.skipped).toMatch(/^its definition would be refused \(\/outputSchema\/properties\/slug\/pattern: /);
    }
    const result = await apply(core, { source: { text }, bundleID, operations: [sizes!.key], allowHosts: plan.hosts });
    expect(result.written.map((tool) => tool.slug)).toEqual([sizes!.slug]);
  });

  it('sends a form-encoded body as a form: the fields given, nested ones in brackets, none left empty', async () => {
    const core = await startTestCore();
    const api = await startLoopbackServer({ '/v1/customers': (_request, response) => json(response, 200, { id: 'cus_1' }) });
    const description = {
      openapi: '3.0.3',
      info: { title: 'Payments', version: '1' },
      servers: [{ url: `${api.base}/v1` }],
      paths: {
        '/customers': {
          post: {
            operationId: 'PostCustomers',
            requestBody: {
              required: true,
              content: {
                'application/x-www-form-urlencoded': {
                  schema: { type: 'object', properties: { email: { type: 'string' }, name: { type: 'string' }, metadata: { type: 'object', additionalProperties: { type: 'string' } }, expand: { type: 'array', items: { type: 'string' } } } },
                },
              },
            },
            responses: { '200': { description: 'The customer' } },
          },
        },
      },
    };
    const text = JSON.stringify(description);
    const bundleID = newID();
    const plan = await preview(core, { source: { text }, bundleID });
    expect(plan.operations[0]!.skipped).toBeUndefined();
    await apply(core, { source: { text }, bundleID, operations: [plan.operations[0]!.key], allowHosts: plan.hosts });
    const created = expectOk(await core.call('tools.invoke', { bundleID, toolSlug: plan.operations[0]!.slug, version: 'v1', args: { email: 'ada@example.com', metadata: { plan: 'pro & more' }, expand: ['sources'] } }));
    expect(created.value).toEqual({ id: 'cus_1' });
    const sent = api.requestsTo('/v1/customers')[0]!;
    expect(sent.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(sent.body.toString()).toBe('email=ada%40example.com&metadata%5Bplan%5D=pro+%26+more&expand%5B%5D=sources');
  });

  it('reads Swagger 2.0 (host, basePath, body and form parameters) and OpenAPI 3.1 with global security and public operations', async () => {
    const core = await startTestCore();
    const swaggerDoc = JSON.parse(await fixture('petstore-swagger-2.0.json')) as { securityDefinitions: Record<string, Record<string, unknown>> };
    // Its OAuth as the authorization code ("accessCode" in Swagger 2.0): a sign-in in the browser.
    Object.assign(swaggerDoc.securityDefinitions.petstore_auth!, { flow: 'accessCode', tokenUrl: 'https://petstore.swagger.io/oauth/token' });
    const swagger = await preview(core, { source: { text: JSON.stringify(swaggerDoc) } });
    expect(swagger.operations.find((operation) => operation.key === 'POST /pet')!.tool!.impl).toMatchObject({
      auth: { kind: 'oauth2', flow: 'authorizationCode', authorizationUrl: 'http://petstore.swagger.io/oauth/dialog', tokenUrl: 'https://petstore.swagger.io/oauth/token', scope: 'write:pets read:pets' },
    });
    expect(swagger.format).toBe('Swagger 2.0');
    expect(swagger.bundle.http?.baseUrl).toBe('http://petstore.swagger.io/v2');
    const upload = swagger.operations.find((operation) => operation.key === 'POST /pet/{petId}/uploadImage')!;
    expect(upload.tool!.impl).toMatchObject({ multipart: true, body: { additionalMetadata: '${additionalMetadata}', file: '${file}' } });
    expect(swagger.operations.find((operation) => operation.key === 'POST /pet')!.tool!.argSchema).toMatchObject({ required: ['name', 'photoUrls'] });

    const trainDoc = JSON.parse(await fixture('train-travel-3.1.json')) as { paths: Record<string, Record<string, Record<string, unknown>>> };
    trainDoc.paths['/stations']!.get!.security = [];
    const train = await preview(core, { source: { text: JSON.stringify(trainDoc) } });
    expect(train.format).toBe('OpenAPI 3.1.0');
    // Its OAuth 2 authorization code: a sign-in in the browser, the client ID a secret to set.
    expect(train.bundle.http?.auth).toEqual({
      kind: 'oauth2',
      flow: 'authorizationCode',
      authorizationUrl: 'https://example.com/oauth/authorize',
      tokenUrl: 'https://example.com/oauth/token',
      clientId: '${secret.TRAIN_TRAVEL_API_OAUTH2_CLIENT_ID}',
      scope: 'read write',
    });
    expect(train.notes.join(' ')).toContain('Train Travel API (OAuth2) signs in in the browser');
    // `security: []` on an operation: it sends no credentials, not even the bundle's.
    const authOf = (key: string) => (train.operations.find((operation) => operation.key === key)!.tool!.impl as { auth?: { kind: string } }).auth;
    expect(authOf('GET /stations')).toEqual({ kind: 'none' });
    expect(authOf('GET /trips')).toBeUndefined();
    expect(train.operations.find((operation) => operation.key === 'GET /trips')!.tool!.argSchema).toMatchObject({ required: ['origin', 'destination', 'date'] });
  });

  it('reads a large public description: GitHub’s REST API, every operation a valid, distinct tool', async () => {
    const core = await startTestCore();
    const text = await readFile(path.join(import.meta.dirname, '../../node_modules/@octokit/openapi/generated/ghes-3.17.json'), 'utf8');
    const plan = await preview(core, { source: { text } });
    const tools = plan.operations.filter((operation) => operation.tool);
    expect(tools.length).toBeGreaterThan(700);
    expect(new Set(plan.operations.map((operation) => operation.slug)).size).toBe(plan.operations.length);
    // Sending a GET's form in its query (Stripe) changes nothing here: no operation departs from the description.
    expect(plan.operations.filter((operation) => operation.note)).toEqual([]);
    expect(plan.operations.find((operation) => operation.operationId === 'repos/get')).toMatchObject({ slug: 'repos-get', tool: { impl: { urlTemplate: '/repos/${owner}/${repo}' } } });
    // Each tool is one a person could save: the store checks every one the way tools.put does.
    for (const operation of tools) {
      const { issues } = (await core.call('tools.validate', { bundleID: newID(), toolSlug: operation.slug, tool: operation.tool })) as { issues: unknown[] };
      expect(issues, operation.key).toEqual([]);
    }
  }, 60_000);

  it('says plainly what is not a description, does not follow references out of it, and refuses hosts not allowed', async () => {
    const core = await startTestCore();
    const notSpec = await core.failure('imports.openapiPreview', { source: { text: '{"hello": "world"}' } });
    expect([notSpec.code, notSpec.message]).toEqual(['import_invalid', expect.stringMatching(/no "openapi" or "swagger" field/) as unknown]);
    expect((await core.failure('imports.openapiPreview', { source: { text: 'openapi: 2.5\ninfo: {}' } })).message).toMatch(/OpenAPI 2.5 is not supported/);
    expect((await core.failure('imports.openapiPreview', { source: { text: '{"openapi": ' } })).code).toBe('import_invalid');
    // Billion laughs: aliases are capped, the core answers instead of filling its memory.
    const bomb = ['a: &a ["x","x","x","x","x","x","x","x","x","x"]', ...Array.from({ length: 9 }, (_, index) => `${String.fromCharCode(98 + index)}: &${String.fromCharCode(98 + index)} [${Array(10).fill(`*${String.fromCharCode(97 + index)}`).join(',')}]`)].join('\n');
    expect((await core.failure('imports.openapiPreview', { source: { text: `openapi: 3.0.0\n${bomb}` } })).code).toBe('import_invalid');

    const server = await startLoopbackServer({ '/secret.json': (_request, response) => json(response, 200, { type: 'string' }) });
    const external = { openapi: '3.0.0', info: { title: 'T', version: '1' }, paths: { '/x': { get: { operationId: 'x', parameters: [{ name: 'q', in: 'query', schema: { $ref: `${server.base}/secret.json` } }], responses: { 200: { description: 'ok' } } } } } };
    const plan = await preview(core, { source: { text: JSON.stringify(external) } });
    expect(server.seen).toHaveLength(0);
    expect(plan.operations[0]!.tool!.argSchema).toMatchObject({ properties: { q: { description: expect.stringContaining('secret.json') as unknown } } });

    const refused = await core.failure('imports.openapiPreview', { source: { url: `${server.base}/spec.json` } });
    expect([refused.code, refused.message]).toEqual(['host_not_allowed', expect.stringContaining(`Add ${server.host} in Settings → Allowed hosts`) as unknown]);
  });

  it('follows a redirect only to an allowed host: one elsewhere, or to file://, is refused as host_not_allowed (403), not as unreachable', async () => {
    const core = await startTestCore();
    const spec = { openapi: '3.0.3', info: { title: 'Moved', version: '1' }, paths: { '/x': { get: { operationId: 'x', responses: { 200: { description: 'ok' } } } } } };
    const redirect = (location: string) => (_request: unknown, response: { writeHead(status: number, headers: Record<string, string>): void; end(): void }) => {
      response.writeHead(302, { location });
      response.end();
    };
    const server = await startLoopbackServer({
      '/spec.json': (_request, response) => json(response, 200, spec),
      '/moved': redirect('/spec.json'),
      '/away': redirect('http://localhost:9/spec.json'),
      '/file': redirect('file:///etc/passwd'),
    });
    await core.call('settings.patch', { allowedHosts: [server.host] });
    expect((await preview(core, { source: { url: `${server.base}/moved` } })).title).toBe('Moved');
    for (const [route, said] of [['/away', 'localhost:9 is not an allowed host'], ['/file', 'file: addresses are not fetched']] as const) {
      const refused = await core.failure('imports.openapiPreview', { source: { url: `${server.base}${route}` } });
      expect([refused.code, refused.httpStatus, refused.message]).toEqual(['host_not_allowed', 403, expect.stringContaining(said) as unknown]);
    }
  });

  it('reads a description from a URL on an allowed host, its relative server address taken from there', async () => {
    const core = await startTestCore();
    const spec = { openapi: '3.0.3', info: { title: 'Notes', version: '2' }, servers: [{ url: '/api' }], paths: { '/notes': { get: { operationId: 'listNotes', responses: { 200: { description: 'ok' } } } } } };
    const server = await startLoopbackServer({ '/openapi.json': (_request, response) => json(response, 200, spec) });
    await core.call('settings.patch', { allowedHosts: [server.host] });
    const plan = await preview(core, { source: { url: `${server.base}/openapi.json` } });
    expect(plan.bundle.http).toEqual({ baseUrl: `${server.base}/api`, allowedHosts: [server.host] });
    const pasted = await preview(core, { source: { text: JSON.stringify(spec) } });
    expect(pasted.bundle.http).toBeUndefined();
    expect(pasted.notes).toEqual([expect.stringMatching(/relative to where it was published; set the base URL/) as unknown]);
  });
});

describe('OpenAPI import: writing the tools', () => {
  it('writes what the preview showed, without reading the description again; a preview reads it anew', async () => {
    const core = await startTestCore();
    let served = { openapi: '3.0.3', info: { title: 'Notes', version: '1' }, servers: [{ url: '/api' }], paths: { '/notes': { get: { operationId: 'listNotes', summary: 'List notes', responses: { 200: { description: 'ok' } } } } } };
    const server = await startLoopbackServer({ '/openapi.json': (_request, response) => json(response, 200, served) });
    await core.call('settings.patch', { allowedHosts: [server.host] });
    const source = { url: `${server.base}/openapi.json` };
    const plan = await preview(core, { source });
    expect(server.requestsTo('/openapi.json')).toHaveLength(1);

    // The description changes at its address after the preview: Import writes the operation the person chose from.
    served = { ...served, paths: { '/notes': { get: { operationId: 'listNotes', summary: 'Every note, newest first', responses: { 200: { description: 'ok' } } } } } };
    const bundleID = newID();
    const result = await apply(core, { source, bundleID, operations: plan.operations.map((operation) => operation.key) });
    expect(result.written).toEqual([{ slug: 'list-notes', version: 'v1', status: 'new' }]);
    expect(server.requestsTo('/openapi.json')).toHaveLength(1);
    expect((await toolsOf(core, bundleID)).map((tool) => tool.displayName)).toEqual(['List notes']);

    // Previewed again, the new description is read and the change shows.
    const again = await preview(core, { source, bundleID });
    expect(server.requestsTo('/openapi.json')).toHaveLength(2);
    expect(again.operations.map((operation) => [operation.slug, operation.status])).toEqual([['list-notes', 'changed']]);
  });

  it('reads the description again for an Import more than 30 minutes after its preview', async () => {
    const clock = manualClock();
    const core = await startTestCore({ clock });
    const served = { openapi: '3.0.3', info: { title: 'Notes', version: '1' }, servers: [{ url: '/api' }], paths: { '/notes': { get: { operationId: 'listNotes', responses: { 200: { description: 'ok' } } } } } };
    const server = await startLoopbackServer({ '/openapi.json': (_request, response) => json(response, 200, served) });
    await core.call('settings.patch', { allowedHosts: [server.host] });
    const source = { url: `${server.base}/openapi.json` };
    const plan = await preview(core, { source });
    clock.advance(31 * 60_000);
    const result = await apply(core, { source, bundleID: newID(), operations: plan.operations.map((operation) => operation.key) });
    expect(result.written).toHaveLength(1);
    expect(server.requestsTo('/openapi.json')).toHaveLength(2);
  });

  it('imports by the preview’s id without the description’s text again; an id imported already, too old, or read under other allowed hosts or base URL is gone, with its own code', async () => {
    const clock = manualClock();
    const core = await startTestCore({ clock });
    const text = JSON.stringify({ openapi: '3.0.3', info: { title: 'Notes', version: '1' }, servers: [{ url: 'https://notes.example/api' }], paths: { '/notes': { get: { operationId: 'listNotes', responses: { 200: { description: 'ok' } } } } } });
    const plan = await preview(core, { source: { text } });
    expect(plan.previewId).toMatch(/^[A-Za-z0-9_-]{16,64}$/);
    const bundleID = newID();
    const byPreview = (id: string | undefined, extra: { baseUrl?: string } = {}) => ({ ...(id ? { previewId: id } : {}), bundleID, operations: ['GET /notes'], ...extra });
    expect(await apply(core, byPreview(plan.previewId))).toMatchObject({ created: true, written: [{ slug: 'list-notes', version: 'v1', status: 'new' }] });
    expect((await toolsOf(core, bundleID)).map((tool) => tool.slug)).toEqual(['list-notes']);

    // Taken by that import: the same id again is gone, and says what to do.
    const again = await core.failure('imports.openapiApply', byPreview(plan.previewId));
    expect(again.code).toBe('import_preview_gone');
    expect(again.message).toMatch(/send the description again/);
    // Half an hour later; after the allowed hosts changed; with another base URL than the preview's.
    const late = await preview(core, { source: { text } });
    clock.advance(31 * 60_000);
    expect((await core.failure('imports.openapiApply', byPreview(late.previewId))).code).toBe('import_preview_gone');
    const hosts = await preview(core, { source: { text } });
    await core.call('settings.patch', { allowedHosts: ['other.example'] });
    expect((await core.failure('imports.openapiApply', byPreview(hosts.previewId))).code).toBe('import_preview_gone');
    const based = await preview(core, { source: { text } });
    expect((await core.failure('imports.openapiApply', byPreview(based.previewId, { baseUrl: 'https://elsewhere.example' }))).code).toBe('import_preview_gone');
    // Neither the description nor a preview: nothing to import from.
    expect((await core.failure('imports.openapiApply', byPreview(undefined))).code).toBe('invalid_params');
  });

  it('writes the chosen operations as a new bundle whose tools run against the API’s own examples', async () => {
    const core = await startTestCore();
    // Signed in with a token of one's own: the description's OAuth 2 scheme set to a bearer token.
    const described = JSON.parse(await fixture('train-travel-3.1.json')) as { components: { securitySchemes: Record<string, unknown> } };
    described.components.securitySchemes.OAuth2 = { type: 'http', scheme: 'bearer' };
    const text = JSON.stringify(described);
    const { doc } = await loadOpenApi({ text }, []);
    const api = await startSpecExampleServer(doc);
    onTestFinished(api.close);
    const bundleID = newID();
    const plan = await preview(core, { source: { text }, bundleID, baseUrl: api.base });
    const chosen = plan.operations.filter((operation) => operation.tool).map((operation) => operation.key);
    // The person allows the API's host in the preview.
    expect(plan.hosts).toEqual([new URL(api.base).host]);
    const result = await apply(core, { source: { text }, bundleID, baseUrl: api.base, operations: chosen, allowHosts: plan.hosts });
    expect(result).toMatchObject({ bundleID, created: true, unchanged: 0 });
    expect(result.written.map((tool) => tool.slug)).toEqual(plan.operations.filter((operation) => operation.tool).map((operation) => operation.slug));
    const written = await toolsOf(core, bundleID);
    expect(written).toHaveLength(chosen.length);
    // Two tools that answer with the same component (a booking) each hold their own copy of its schema, as their files do.
    const [created, fetched] = ['create-booking', 'get-booking'].map((slug) => written.find((tool) => tool.slug === slug)!);
    const booking = (tool: ToolView) => (tool.outputSchema as { allOf: [{ properties: { id: unknown } }] }).allOf[0];
    expect(booking(created!).properties.id).toMatchObject({ format: 'uuid' });
    expect(booking(created!)).toEqual(booking(fetched!));
    expect(booking(created!)).not.toBe(booking(fetched!));

    await core.call('secrets.put', { name: 'TRAIN_TRAVEL_API_OAUTH2_TOKEN', value: 'tok"en' });
    const stations = expectOk(await core.call('tools.invoke', { bundleID, toolSlug: 'get-stations', version: 'v1', args: {} }));
    expect(stations.value).toMatchObject({ data: expect.arrayContaining([expect.objectContaining({ name: expect.any(String) as unknown })]) as unknown });
    expect(api.seen[0]!.headers.authorization).toBe('Bearer tok"en');
    const trips = expectOk(await core.call('tools.invoke', { bundleID, toolSlug: 'get-trips', version: 'v1', args: { origin: STATION_A, destination: STATION_B, date: '2026-11-24T10:00:00Z', dogs: true } }));
    expect(trips.ok).toBe(true);
    // bicycles was not given: the description's default (false) is sent.
    expect(api.seen[1]!.url).toBe(`/trips?origin=${STATION_A}&destination=${STATION_B}&date=2026-11-24T10%3A00%3A00Z&bicycles=false&dogs=true`);
  });

  it('re-imports a changed description: new and changed tools are written (changed ones as a new version), the same ones are left, gone ones are listed', async () => {
    const core = await startTestCore();
    const original = await fixture('petstore-3.0.yaml');
    const bundleID = newID();
    const first = await preview(core, { source: { text: original }, bundleID });
    const importable = first.operations.filter((operation) => operation.tool).map((operation) => operation.key);
    await apply(core, { source: { text: original }, bundleID, operations: importable });

    const again = await preview(core, { source: { text: original }, bundleID });
    expect(again.bundleID).toBe(bundleID);
    expect(new Set(again.operations.filter((operation) => operation.tool).map((operation) => operation.status))).toEqual(new Set(['same']));

    const changed = original.replace('summary: Find pet by ID', 'summary: Find a pet by its ID').replace(/ {2}'\/user\/logout':\n(?:[ ]{4}.*\n)+/, '');
    const plan = await preview(core, { source: { text: changed }, bundleID });
    expect(plan.operations.find((operation) => operation.slug === 'get-pet-by-id')).toMatchObject({ status: 'changed', currentVersion: 'v1', nextVersion: 'v2' });
    expect(plan.gone).toEqual([{ slug: 'logout-user', version: 'v1', displayName: 'Logs out current logged in user session' }]);
    const result = await apply(core, { source: { text: changed }, bundleID, operations: plan.operations.filter((operation) => operation.tool).map((operation) => operation.key) });
    expect(result).toMatchObject({ created: false, written: [{ slug: 'get-pet-by-id', version: 'v2', status: 'changed' }], unchanged: importable.length - 2 });
    const versions = (await toolsOf(core, bundleID)).filter((tool) => tool.slug === 'get-pet-by-id').map((tool) => [tool.version, tool.displayName]);
    expect(versions.sort()).toEqual([
      ['v1', 'Find pet by ID'],
      ['v2', 'Find a pet by its ID'],
    ]);
  });

  it('never writes over a bundle that appeared meanwhile, refuses unknown or skipped operations, and clears unfinished imports', async () => {
    const core = await startTestCore();
    const text = await fixture('petstore-3.0.yaml');
    const bundleID = newID();
    const unknown = await core.failure('imports.openapiApply', { source: { text }, bundleID, operations: ['GET /nowhere'] });
    expect([unknown.code, unknown.message]).toEqual(['invalid_params', 'The description has no operation "GET /nowhere".']);
    const upload = { openapi: '3.0.3', info: { title: 'Files', version: '1' }, servers: [{ url: 'https://files.example' }], paths: { '/files': { put: { requestBody: { content: { 'application/octet-stream': { schema: { type: 'string', format: 'binary' } } } }, responses: { '200': { description: 'Stored' } } } } } };
    const skipped = await core.failure('imports.openapiApply', { source: { text: JSON.stringify(upload) }, bundleID, operations: ['PUT /files'] });
    expect(skipped.message).toMatch(/cannot be imported: its request body/);
    expect(await readdir(path.join(core.dataDir, 'bundles')).catch(() => [])).not.toContain(bundleID);

    // A folder of that name with someone's file in it: the import is refused, the file untouched.
    await mkdir(path.join(core.dataDir, 'bundles', bundleID, 'tools'), { recursive: true });
    const store = core.call('imports.openapiApply', { source: { text }, bundleID, operations: ['GET /pet/{petId}'] });
    await expect(store).rejects.toMatchObject({ code: 'conflict', message: expect.stringContaining('the bundle was not written over it') as unknown });
    expect(await readdir(path.join(core.dataDir, 'bundles', bundleID))).toEqual(['tools']);

    // Staging left by a crash is cleared once it is an hour old, not before (another process may be writing it).
    const staging = path.join(core.dataDir, 'staging', 'left-by-a-crash');
    await mkdir(path.join(staging, 'tools'), { recursive: true });
    expect(await clearAbandonedStaging(core.dataDir)).toBe(0);
    const twoHoursAgo = new Date(Date.now() - 2 * 3600_000);
    await utimes(staging, twoHoursAgo, twoHoursAgo);
    expect(await clearAbandonedStaging(core.dataDir)).toBe(1);
    expect(await readdir(path.join(core.dataDir, 'staging'))).toEqual([]);
    // A staging named for its writer is cleared at once when that process is gone (a kill -9 mid-import), kept while it runs.
    const gone = spawnSync(process.execPath, ['-e', '']).pid;
    const crashed = `${newID()}.${gone}`;
    const running = `${newID()}.${process.ppid}`;
    for (const name of [crashed, running]) await mkdir(path.join(core.dataDir, 'staging', name, 'tools'), { recursive: true });
    expect(await clearAbandonedStaging(core.dataDir)).toBe(1);
    expect(await readdir(path.join(core.dataDir, 'staging'))).toEqual([running]);
  });
});

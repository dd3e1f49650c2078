import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { newID } from '../../testing/data/fixtures.js';
import { expectOk } from '../../testing/harness/invoke-harness.js';
import { json, startLoopbackServer, type Route } from '../../testing/harness/loopback-server.js';
import { startTestCore } from '../../testing/harness/test-core.js';

// ReadMe's parameters-style.json (oas-examples) describes one operation per cell of OpenAPI's serialisation table:
// query, path, header and cookie parameters in each style, exploded or not, each holding a primitive, an array and an
// object. Imported and called against a loopback server, each must arrive as the table writes it.
const args = { primitive: 'blue', array: ['blue', 'black', 'brown'], object: { name: 'Alex', description: 'admin' } };

/** What arrives for each operation: its URL as sent (path and query) and, for headers and cookies, those. */
const TABLE: Record<string, { url: string; headers?: Record<string, string>; cookie?: string }> = {
  query_standard: { url: '/anything/query?primitive=blue&array=blue&array=black&array=brown&name=Alex&description=admin' },
  query_form_nonExploded: { url: '/anything/query/form?primitive=blue&array=blue,black,brown&object=name,Alex,description,admin' },
  query_form_exploded: { url: '/anything/query/form?primitive=blue&array=blue&array=black&array=brown&name=Alex&description=admin' },
  query_spaceDelimited_nonExploded: { url: '/anything/query/spaceDelimited?array=blue%20black%20brown&object=name%20Alex%20description%20admin' },
  query_pipeDelimited_nonExploded: { url: '/anything/query/pipeDelimited?array=blue|black|brown&object=name|Alex|description|admin' },
  query_deepObject_nonExploded: { url: '/anything/query/deepObject?object[name]=Alex&object[description]=admin' },
  paths_standard: { url: '/anything/path/blue/blue,black,brown/name,Alex,description,admin' },
  paths_simple_nonExploded: { url: '/anything/path/simple/blue/blue,black,brown/name,Alex,description,admin' },
  paths_simple_exploded: { url: '/anything/path/simple/blue/blue,black,brown/name=Alex,description=admin' },
  paths_label_nonExploded: { url: '/anything/path/label/.blue/.blue,black,brown/.name,Alex,description,admin' },
  paths_label_exploded: { url: '/anything/path/label/.blue/.blue.black.brown/.name=Alex.description=admin' },
  paths_matrix_nonExploded: { url: '/anything/path/matrix/;primitive=blue/;array=blue,black,brown/;object=name,Alex,description,admin' },
  paths_matrix_exploded: { url: '/anything/path/matrix/;primitive=blue/;array=blue;array=black;array=brown/;name=Alex;description=admin' },
  headers_standard: { url: '/anything/headers', headers: { primitive: 'blue', array: 'blue,black,brown', object: 'name,Alex,description,admin' } },
  headers_simple_nonExploded: { url: '/anything/headers/simple', headers: { primitive: 'blue', array: 'blue,black,brown', object: 'name,Alex,description,admin' } },
  headers_simple_exploded: { url: '/anything/headers/simple', headers: { primitive: 'blue', array: 'blue,black,brown', object: 'name=Alex,description=admin' } },
  // Exploded lists and objects are cookies of their own, as OpenAPI 3.2's cookie style writes them.
  cookies_standard: { url: '/cookies', cookie: 'primitive=blue; array=blue; array=black; array=brown; name=Alex; description=admin' },
  cookies_form_nonExploded: { url: '/cookies', cookie: 'primitive=blue; array=blue,black,brown; object=name,Alex,description,admin' },
  cookies_form_exploded: { url: '/cookies', cookie: 'primitive=blue; array=blue; array=black; array=brown; name=Alex; description=admin' },
};

async function importedStyles() {
  const core = await startTestCore();
  const answer: Route = (_request, response) => json(response, 200, { ok: true });
  const routes = Object.fromEntries(Object.values(TABLE).map(({ url }) => [url.split('?')[0]!, answer]));
  const api = await startLoopbackServer(routes);
  const text = await readFile(path.join(import.meta.dirname, 'fixtures/parameters-style.json'), 'utf8');
  const bundleID = newID();
  const read = { bundleID, baseUrl: api.base };
  const plan = await core.call('imports.openapiPreview', { source: { text }, ...read });
  const wanted = plan.operations.filter((operation) => operation.operationId && operation.operationId in TABLE);
  await core.call('imports.openapiApply', { previewId: plan.previewId, ...read, operations: wanted.map((operation) => operation.key), allowHosts: plan.hosts });
  const slugOf = (operationId: string) => wanted.find((operation) => operation.operationId === operationId)!.slug;
  return { core, api, bundleID, wanted, slugOf };
}

describe("OpenAPI import: every cell of the parameter serialisation table (oas-examples' parameters-style)", () => {
  it('sends each style of query, path, header and cookie parameter, exploded or not, as OpenAPI writes it', async () => {
    const { core, api, bundleID, wanted, slugOf } = await importedStyles();
    expect(wanted.map((operation) => operation.operationId).sort()).toEqual(Object.keys(TABLE).sort());
    for (const operation of wanted) expect(operation.skipped, operation.key).toBeUndefined();

    const arrived: Record<string, { url: string; headers?: Record<string, string>; cookie?: string }> = {};
    for (const [operationId, expected] of Object.entries(TABLE)) {
      const before = api.seen.length;
      // Each operation takes only the arguments its description gives (the delimited styles have no primitive).
      const names = Object.keys((wanted.find((operation) => operation.operationId === operationId)!.tool!.argSchema as { properties: object }).properties);
      const given = Object.fromEntries(Object.entries(args).filter(([name]) => names.includes(name)));
      expectOk(await core.call('tools.invoke', { bundleID, toolSlug: slugOf(operationId), version: 'v1', args: given }));
      const request = api.seen[before]!;
      arrived[operationId] = {
        url: request.url,
        ...(expected.headers ? { headers: Object.fromEntries(Object.keys(expected.headers).map((name) => [name, String(request.headers[name])])) } : {}),
        ...(expected.cookie ? { cookie: String(request.headers.cookie) } : {}),
      };
    }
    // One comparison of the whole table, so a wrong cell shows beside the right ones.
    expect(arrived).toEqual(TABLE);
  }, 60_000);

  it('keeps a delimiter inside a value apart from the ones between values, and lets no value leave its path segment', async () => {
    const { core, api, bundleID, slugOf } = await importedStyles();
    const call = async (operationId: string, given: Record<string, unknown>) => {
      const before = api.seen.length;
      expectOk(await core.call('tools.invoke', { bundleID, toolSlug: slugOf(operationId), version: 'v1', args: given }));
      return api.seen[before]!;
    };
    // A comma, a pipe, an ampersand and brackets inside values are encoded; the style's own delimiters are not.
    expect((await call('query_form_nonExploded', { array: ['a,b', 'c'], object: { 'k&': 'v=1' } })).url).toBe('/anything/query/form?array=a%2Cb,c&object=k%26,v%3D1');
    expect((await call('query_pipeDelimited_nonExploded', { array: ['a|b', 'c'] })).url).toBe('/anything/query/pipeDelimited?array=a%7Cb|c');
    expect((await call('query_deepObject_nonExploded', { object: { 'a]b': 'x y', name: '' } })).url).toBe('/anything/query/deepObject?object[a%5Db]=x%20y&object[name]=');
    // A cookie's value cannot carry "; " (it would start another cookie): encoded, as the other delimiters are.
    expect((await call('cookies_form_nonExploded', { primitive: 'a; admin=1', array: ['x,y', 'z'] })).headers.cookie).toBe('primitive=a%3B%20admin=1; array=x%2Cy,z');
    // A path value cannot climb out of its segment in any style.
    const climbing = core.call('tools.invoke', { bundleID, toolSlug: slugOf('paths_label_exploded'), version: 'v1', args: { primitive: '.', array: ['a'], object: {} } });
    await expect(climbing).rejects.toMatchObject({ code: 'invalid_args' });
    expect(api.seen.filter((request) => request.url.includes('..'))).toEqual([]);
  }, 60_000);
});

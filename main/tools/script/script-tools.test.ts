import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CompiledScriptCache } from '../../script-sandbox/compiled-cache.js';
import { silentLogger } from '../../log.js';
import { v7 as uuidv7 } from 'uuid';
import { expectOk } from '../../../testing/harness/invoke-harness.js';
import { startTestCore } from '../../../testing/harness/test-core.js';

const servers: ReturnType<typeof createServer>[] = [];
afterEach(() => servers.splice(0).forEach((server) => server.close()));

async function loopbackApi() {
  const seen: { url: string; authorization?: string }[] = [];
  const server = createServer((request, response) => {
    seen.push({ url: request.url ?? '', ...(request.headers.authorization ? { authorization: request.headers.authorization } : {}) });
    if (request.url?.startsWith('/redirect')) {
      response.writeHead(302, { location: 'http://example.invalid/elsewhere' });
      return void response.end();
    }
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(JSON.stringify({ city: new URL(request.url ?? '/', 'http://x').searchParams.get('q'), temp: 21 }));
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { host: `127.0.0.1:${(server.address() as AddressInfo).port}`, seen };
}

const WEATHER = `interface Weather { city: string; temp: number }

/**
 * The temperature in a city, from the loopback weather API.
 * @param city The city.
 * @param host Where the API listens.
 */
export default async function weather(city: string, host: string, unit: 'C' | 'F' = 'C'): Promise<Weather & { unit: string }> {
  console.log('asking for', city);
  const response = await fetch('http://' + host + '/w?q=' + encodeURIComponent(city), { headers: { authorization: 'Bearer ' + secret('WEATHER_KEY') } });
  const body = await response.json();
  return { city: body.city, temp: unit === 'C' ? body.temp : body.temp * 9 / 5 + 32, unit };
}`;

describe('script tools through the core', () => {
  it('a script tool is written with its schema read from its function, runs with fetch through the allowed hosts and its declared secret, and masks that secret', async () => {
    const api = await loopbackApi();
    const { call, failure } = await startTestCore();
    await call('settings.patch', { allowedHosts: [api.host] });
    await call('secrets.put', { name: 'WEATHER_KEY', value: 'sk-"quoted"-secret' });
    const bundleID = uuidv7();
    await call('bundles.put', { bundleID, slug: 'scripts', displayName: 'Scripts' });
    const written = await call('tools.put', {
      bundleID,
      toolSlug: 'weather',
      version: 'v1',
      tool: { displayName: 'Weather', type: 'script', argSchema: {}, impl: { language: 'typescript', source: WEATHER, secrets: ['WEATHER_KEY'] } },
    });
    expect(written).toMatchObject({
      description: 'The temperature in a city, from the loopback weather API.',
      argSchema: { type: 'object', required: ['city', 'host'], properties: { city: { type: 'string', description: 'The city.' }, unit: { enum: ['C', 'F'], default: 'C' } } },
    });
    const address = { bundleID, toolSlug: 'weather', version: 'v1' };
    const result = expectOk(await call('tools.invoke', { ...address, args: { city: 'Oslo', host: api.host, unit: 'F' }, trace: true }));
    expect(result.value).toEqual({ city: 'Oslo', temp: 69.8, unit: 'F' });
    expect(result.logs).toEqual([{ level: 'log', text: 'asking for Oslo' }]);
    expect(result.memoryBytes).toBeGreaterThan(0);
    expect(api.seen).toEqual([{ url: '/w?q=Oslo', authorization: 'Bearer sk-"quoted"-secret' }]);
    // The secret went out to the API and nowhere else: the trace shows the request with it masked.
    expect(JSON.stringify(result)).not.toContain('sk-"quoted"-secret');
    expect(JSON.stringify(result.trace)).toContain('/w?q=Oslo');

    // A host not allowed, and a script that leaks its secret into its answer and console: refused, masked.
    const leak = `export default async function (host: string) { console.log(secret('WEATHER_KEY')); try { await fetch('http://example.com/'); } catch (e) { return { error: String(e), key: secret('WEATHER_KEY') }; } }`;
    await call('tools.put', { bundleID, toolSlug: 'leak', version: 'v1', tool: { displayName: 'Leak', type: 'script', argSchema: {}, impl: { language: 'typescript', source: leak, secrets: ['WEATHER_KEY'] } } });
    const leaked = expectOk(await call('tools.invoke', { bundleID, toolSlug: 'leak', version: 'v1', args: { host: api.host } }));
    expect(JSON.stringify(leaked)).not.toContain('sk-"quoted"-secret');
    expect(leaked.value).toMatchObject({ error: expect.stringContaining('not an allowed host') as unknown });
    // Outside the tester (no trace asked) the heap is not walked for a figure nobody shows.
    expect(leaked.memoryBytes).toBeUndefined();

    // A schema written by hand must name the function's parameters; a script that does not parse is refused with its line.
    const mismatch = await failure('tools.put', { ...address, tool: { displayName: 'Weather', type: 'script', argSchema: { type: 'object', properties: { town: { type: 'string' } } }, impl: { language: 'typescript', source: WEATHER } } });
    expect(mismatch).toMatchObject({ code: 'invalid_params', message: expect.stringContaining('missing city, host, unit; not parameters: town') as unknown });
    const broken = await failure('tools.put', { ...address, tool: { displayName: 'Weather', type: 'script', argSchema: {}, impl: { language: 'javascript', source: 'export default function (a {\n}' } } });
    expect(broken).toMatchObject({ code: 'invalid_params', message: expect.stringContaining('line 1') as unknown });
  });

  it('errors are results with codes, and the core answers other calls while a script spins', async () => {
    const { call } = await startTestCore();
    const bundleID = uuidv7();
    await call('bundles.put', { bundleID, slug: 'scripts', displayName: 'Scripts' });
    const put = (slug: string, source: string, limits?: object) =>
      call('tools.put', { bundleID, toolSlug: slug, version: 'v1', tool: { displayName: slug, type: 'script', argSchema: {}, impl: { language: 'javascript', source, ...(limits ? { limits } : {}) } } });
    await put('spin', 'export default function () { while (true) {} }', { timeoutMs: 1500 });
    await put('throws', 'export default function () {\n  throw new Error("no such city");\n}');
    await put('secretive', 'export default function () { return secret("OTHER"); }');
    const spinning = call('tools.invoke', { bundleID, toolSlug: 'spin', version: 'v1', args: {} });
    // While it spins, the core answers.
    expect((await call('tools.list', { bundleIDs: [bundleID] })).tools).toHaveLength(3);
    const spun = await spinning;
    expect(spun).toMatchObject({ ok: false, error: { code: 'script_timeout' } });
    expect(await call('tools.invoke', { bundleID, toolSlug: 'throws', version: 'v1', args: {} })).toMatchObject({ ok: false, error: { code: 'script_error', message: 'throws: Error: no such city (line 2)' } });
    expect(await call('tools.invoke', { bundleID, toolSlug: 'secretive', version: 'v1', args: {} })).toMatchObject({ ok: false, error: { code: 'script_error', message: expect.stringContaining('not one this tool declares') as unknown } });
  });

  it('a script calls other tools by name through the invoker and the one door, and nests no deeper than agents may', async () => {
    const { call } = await startTestCore();
    const bundleID = uuidv7();
    await call('bundles.put', { bundleID, slug: 'scripts', displayName: 'Scripts' });
    // A long limit: each level of the recursion below starts a worker of its own, slow on a busy machine.
    const put = (slug: string, source: string, requiresApproval = false) =>
      call('tools.put', { bundleID, toolSlug: slug, version: 'v1', tool: { displayName: slug, type: 'script', argSchema: {}, requiresApproval, impl: { language: 'javascript', source, limits: { timeoutMs: 30_000 } } } });
    await put('double', 'export default async function (x) { const sum = await tools.call("calculator", { expression: x + " * 2" }); return sum; }');
    await put('careful', 'export default () => "ran"', true);
    await put('asks', 'export default async function () { try { return await tools.call("careful"); } catch (e) { return e.name + " " + e.code + ": " + e.message; } }');
    await put('missing', 'export default async function () { try { return await tools.call("no-such-tool", {}); } catch (e) { return e.code; } }');
    await put('again', 'export default async function () { try { return await tools.call("again", {}); } catch (e) { return e.code + ": " + e.message; } }');

    const doubled = await call('tools.invoke', { bundleID, toolSlug: 'double', version: 'v1', args: { x: 21 } });
    expect(doubled).toMatchObject({ ok: true, value: expect.objectContaining({ value: 42 }) as unknown });
    // Each call is a step of the run, shown as an agent's are.
    expect(doubled).toMatchObject({ steps: [{ kind: 'call', name: 'calculator', tool: 'Calculator', args: { expression: '21 * 2' }, ok: true }] });
    // The called tool asks first and no window is open to ask in: the script is told, and can go on.
    const asked = await call('tools.invoke', { bundleID, toolSlug: 'asks', version: 'v1', args: {} });
    expect(asked).toMatchObject({ ok: true, value: expect.stringContaining('ToolError approval_unavailable: careful asks the person before it runs') as unknown });
    expect(await call('tools.invoke', { bundleID, toolSlug: 'missing', version: 'v1', args: {} })).toMatchObject({ ok: true, value: 'unknown_tool' });
    // A script that calls itself: three levels run, the fourth is refused, and each level passes the refusal up.
    const recursive = await call('tools.invoke', { bundleID, toolSlug: 'again', version: 'v1', args: {} });
    expect(recursive).toMatchObject({ ok: true, value: expect.stringContaining('agent_depth') as unknown });
  });
});

describe('checking a script tool before it is saved', () => {
  it('tools.validate says a schema that does not name the parameters, and a line that does not parse, as problems at their fields', async () => {
    const { call } = await startTestCore();
    const draft = (argSchema: object, source: string) => ({ displayName: 'Draft', type: 'script', argSchema, impl: { language: 'typescript', source } });
    const mismatch = await call('tools.validate', { tool: draft({ type: 'object', properties: { town: { type: 'string' } } }, 'export default function (city: string) { return city; }') });
    expect(mismatch.issues).toEqual([{ path: '/argSchema/properties', message: expect.stringContaining('missing city; not parameters: town') as unknown }]);
    const broken = await call('tools.validate', { tool: draft({}, 'export default function (a: string {\n}') });
    expect(broken.issues[0]).toMatchObject({ path: '/impl/source', message: expect.stringMatching(/^line 1: /) as unknown });
    expect((await call('tools.validate', { tool: draft({}, 'export default function (city: string) { return city; }') })).issues).toEqual([]);
  });
});

describe('a script tool goes where any tool goes', () => {
  it('is exported in a bundle .zip naming the secrets it reads, and imported elsewhere whole, where it runs', async () => {
    const source = await startTestCore();
    const bundleID = uuidv7();
    await source.call('bundles.put', { bundleID, slug: 'scripts', displayName: 'Scripts' });
    await source.call('tools.put', { bundleID, toolSlug: 'greet', version: 'v1', tool: { displayName: 'Greet', type: 'script', argSchema: {}, impl: { language: 'typescript', source: 'export default function (name: string) { return `hi ${name}`; }', secrets: ['GREETING_KEY'] } } });
    const archive = await source.call('bundles.export', { bundleID });
    expect(archive.secrets).toEqual(['GREETING_KEY']);
    const target = await startTestCore();
    const importedID = uuidv7();
    await target.call('bundles.importArchive', { base64: archive.base64, bundleID: importedID, apply: true });
    await target.call('secrets.put', { name: 'GREETING_KEY', value: 'k' });
    expect(await target.call('tools.invoke', { bundleID: importedID, toolSlug: 'greet', version: 'v1', args: { name: 'Ada' } })).toMatchObject({ ok: true, value: 'hi Ada' });
  });

  // 20,000 lines of 5,000 characters (100 MB written); a limit of its own, so a busy machine does not stop it first.
  it('keeps at most 200 console lines of a script that floods its log, and still answers', async () => {
    const { call } = await startTestCore();
    const bundleID = uuidv7();
    await call('bundles.put', { bundleID, slug: 'scripts', displayName: 'Scripts' });
    await call('tools.put', { bundleID, toolSlug: 'noisy', version: 'v1', tool: { displayName: 'Noisy', type: 'script', argSchema: {}, impl: { language: 'javascript', source: 'export default function () { for (let i = 0; i < 20000; i++) console.log("line " + i + " " + "x".repeat(5000)); return "done"; }', limits: { timeoutMs: 30_000 } } } });
    const result = await call('tools.invoke', { bundleID, toolSlug: 'noisy', version: 'v1', args: {} });
    expect(result).toMatchObject({ ok: true, value: 'done' });
    expect(result.ok && result.logs).toHaveLength(200);
    expect(result.ok && result.logs?.[0]?.text.length).toBe(2000);
  });
});

describe('transpiled scripts kept across starts', () => {
  it('a script’s first call after a restart reads its transpiled code from the cache, and a cache file that is not one is a miss', async () => {
    const first = await startTestCore();
    const bundleID = uuidv7();
    await first.call('bundles.put', { bundleID, slug: 'scripts', displayName: 'Scripts' });
    const source = 'export default function (name: string) { return `hi ${name}`; }';
    await first.call('tools.put', { bundleID, toolSlug: 'greet', version: 'v1', tool: { displayName: 'Greet', type: 'script', argSchema: {}, impl: { language: 'typescript', source } } });
    const address = { bundleID, toolSlug: 'greet', version: 'v1' };
    expect(await first.call('tools.invoke', { ...address, args: { name: 'Ada' } })).toMatchObject({ ok: true, value: 'hi Ada' });
    const folder = path.join(first.dataDir, 'cache', 'scripts');
    const cache = new CompiledScriptCache(folder, first.dataDir, silentLogger);
    const file = path.join(folder, `${cache.key('typescript', source)}.json`);
    await vi.waitFor(async () => expect(JSON.parse(await readFile(file, 'utf8'))).toMatchObject({ parameters: ['name'] }));
    await first.core.close();

    // What the next start runs is what the cache holds (here made to say so), without compiling the source again.
    await writeFile(file, JSON.stringify({ code: 'export default function () { return "from the cache"; }', parameters: ['name'] }));
    const second = await startTestCore({ dataDir: first.dataDir });
    expect(await second.call('tools.invoke', { ...address, args: { name: 'Ada' } })).toMatchObject({ ok: true, value: 'from the cache' });
    await second.core.close();

    await writeFile(file, '{ "code": 42 }');
    const third = await startTestCore({ dataDir: first.dataDir });
    expect(await third.call('tools.invoke', { ...address, args: { name: 'Ada' } })).toMatchObject({ ok: true, value: 'hi Ada' });
  });
});

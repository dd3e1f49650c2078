import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { BundleHttp } from '../../shared/schemas/http-impl.js';
import { expectError, expectOk, invokeHarness, type InvokeHarness } from '../../testing/harness/invoke-harness.js';
import { json, startLoopbackServer } from '../../testing/harness/loopback-server.js';

const idArgs = { type: 'object', properties: { id: { type: 'string' } }, required: ['id'] } as const;

async function withBundleHttp(subject: InvokeHarness, http: BundleHttp): Promise<void> {
  await subject.call('bundles.put', { bundleID: subject.bundleID, slug: 'test', displayName: 'Test', http });
}

describe('bundle connection settings', () => {
  it('runs relative URLs from the base URL with the bundle’s auth, headers, hosts and timeout; a tool’s own settings win', async () => {
    const server = await startLoopbackServer({
      '/v1/pets/7': (_request, response) => json(response, 200, { id: 7 }),
      '/v1/health': (_request, response) => json(response, 200, { up: true }),
      '/v1/slow': (_request, response) => setTimeout(() => json(response, 200, {}), 400),
    });
    // The global list does not have the server: the bundle's own allowed hosts let its tools reach it.
    const subject = await invokeHarness([]);
    await subject.call('secrets.put', { name: 'PET_KEY', value: 'k"ey with quotes' });
    await withBundleHttp(subject, {
      baseUrl: `${server.base}/v1/`,
      auth: { kind: 'apiKey', location: 'header', name: 'X-Api-Key', value: '${secret.PET_KEY}' },
      headers: { Accept: 'application/json', 'X-Client': 'toolbelt' },
      allowedHosts: [server.host],
      timeoutMs: 100,
    });
    await subject.putHttpTool('get-pet', { urlTemplate: '/pets/${id}', headers: { 'x-client': 'pet-tool' }, timeoutMs: 5_000 }, { argSchema: idArgs });
    await subject.putHttpTool('health', { urlTemplate: '/health', auth: { kind: 'none' } });
    await subject.putHttpTool('slow', { urlTemplate: '/slow' });

    const pet = expectOk(await subject.invoke('get-pet', { id: '7' }, { trace: true }));
    expect(pet.value).toEqual({ id: 7 });
    const petRequest = server.seen[0]!;
    expect(petRequest.url).toBe('/v1/pets/7');
    expect(petRequest.headers['x-api-key']).toBe('k"ey with quotes');
    expect(petRequest.headers['x-client']).toBe('pet-tool');
    expect(petRequest.headers.accept).toBe('application/json');
    // The inherited key is a secret like any other: masked in the trace.
    expect(JSON.stringify(pet.trace)).not.toContain('k"ey');

    expectOk(await subject.invoke('health'));
    expect(server.seen[1]!.headers['x-api-key']).toBeUndefined();
    expect(server.seen[1]!.headers['x-client']).toBe('toolbelt');

    // The bundle's 100 ms timeout applies to a tool that sets none.
    expectError(await subject.invoke('slow'), 'timeout');
  });

  it('keeps absolute-URL tools working unchanged, and refuses a relative URL without a base URL by saying what to set', async () => {
    const server = await startLoopbackServer({ '/ping': (_request, response) => json(response, 200, 'pong') });
    const subject = await invokeHarness([server.host]);
    await subject.putHttpTool('absolute', { urlTemplate: `${server.base}/ping` });
    await subject.putHttpTool('relative', { urlTemplate: '/ping' });
    expect(expectOk(await subject.invoke('absolute')).value).toBe('pong');
    const refused = await subject.failure('tools.invoke', { bundleID: subject.bundleID, toolSlug: 'relative', version: 'v1', args: {} });
    expect(refused.message).toMatch(/relative and its bundle has no base URL/);

    // With a base URL on another host, the absolute tool still goes where it says.
    await withBundleHttp(subject, { baseUrl: 'https://api.example.com' });
    expect(expectOk(await subject.invoke('absolute')).value).toBe('pong');
  });

  it('refuses bundle settings that would take a tool’s arguments or hide the host, and keeps the rest in bundle.json and the listing', async () => {
    const subject = await invokeHarness([]);
    const refused = await subject.failure('bundles.put', {
      bundleID: subject.bundleID,
      slug: 'test',
      displayName: 'Test',
      http: { baseUrl: 'https://${secret.HOST}/v1', headers: { 'X-Token': '${token}' } },
    });
    expect(refused.code).toBe('invalid_params');
    expect((refused.details as { issues?: unknown } | undefined)?.issues).toEqual([
      { path: '/http/baseUrl', message: expect.stringMatching(/secret inside the host name/) as unknown },
      { path: '/http/headers/X-Token', message: expect.stringMatching(/must name a secret as \$\{secret\.token\}/) as unknown },
    ]);
    const badUrl = await subject.failure('bundles.put', { bundleID: subject.bundleID, slug: 'test', displayName: 'Test', http: { baseUrl: 'ftp://x' } });
    expect(badUrl.code).toBe('invalid_params');

    await withBundleHttp(subject, { baseUrl: 'https://api.example.com/v2', headers: { 'X-Token': '${secret.TOKEN}' } });
    const stored = JSON.parse(await readFile(path.join(subject.dataDir, 'bundles', subject.bundleID, 'bundle.json'), 'utf8')) as { http?: BundleHttp };
    expect(stored.http).toEqual({ baseUrl: 'https://api.example.com/v2', headers: { 'X-Token': '${secret.TOKEN}' } });
    const { bundles } = (await subject.call('bundles.list', { bundleIDs: [subject.bundleID] })) as { bundles: { http?: BundleHttp }[] };
    expect(bundles[0]!.http?.baseUrl).toBe('https://api.example.com/v2');
  });
});

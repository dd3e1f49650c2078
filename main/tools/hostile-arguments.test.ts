import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startInProcessHost, type InProcessHost } from '../../testing/harness/in-process-host.js';
import { json, startLoopbackServer } from '../../testing/harness/loopback-server.js';
import { expectError, expectOk, invokeHarness } from '../../testing/harness/invoke-harness.js';

const LONE_SURROGATE = 'Z\uD800rich';
const deeplyNested = (depth: number) => JSON.parse('['.repeat(depth) + ']'.repeat(depth)) as unknown;

async function echoHarness() {
  const server = await startLoopbackServer({
    '/echo': (request, response) => json(response, 200, { url: request.url, city: request.headers['x-city'] ?? null }),
    '/users/%252e%252e/profile': (request, response) => json(response, 200, { url: request.url }),
    '/users/a..b/profile': (request, response) => json(response, 200, { url: request.url }),
    '/deep': (_request, response) => response.writeHead(200, { 'Content-Type': 'application/json' }).end('['.repeat(20_000) + ']'.repeat(20_000)),
  });
  const h = await invokeHarness([server.host]);
  const argSchema = { type: 'object', properties: { city: { type: 'string' }, p: { type: 'string' }, constructor: { type: 'string' }, anything: {} } };
  await h.putHttpTool('by-query', { urlTemplate: `${server.base}/echo`, query: { city: '${city}' } }, { argSchema });
  await h.putHttpTool('by-path', { urlTemplate: `${server.base}/users/\${p}/profile` }, { argSchema });
  await h.putHttpTool('by-header', { urlTemplate: `${server.base}/echo`, headers: { 'X-City': '${city}' } }, { argSchema });
  const invokeFailure = (slug: string, args: Record<string, unknown>) => h.failure('tools.invoke', { bundleID: h.bundleID, toolSlug: slug, version: 'v1', args });
  return { server, h, invokeFailure };
}

describe('hostile arguments are refused with a reason, never a crash', () => {
  it('a lone UTF-16 surrogate anywhere in the params is invalid_params at its pointer', async () => {
    const { h, invokeFailure } = await echoHarness();
    for (const slug of ['by-query', 'by-path', 'by-header']) {
      const failure = await invokeFailure(slug, { city: LONE_SURROGATE, p: LONE_SURROGATE });
      expect(failure).toMatchObject({ code: 'invalid_params', details: { issues: [{ path: expect.stringMatching(/^\/args\/(city|p)$/) as unknown, message: 'contains a lone UTF-16 surrogate, which is not text' }] } });
    }
    expect((await invokeFailure('by-query', { ['k\uDC00']: 1 })).details).toEqual({ issues: [{ path: '/args/k\uDC00', message: 'has a name with a lone UTF-16 surrogate, which is not text' }] });
    expect(expectOk(await h.invoke('by-query', { city: 'Zürich 🌍' })).value).toMatchObject({ url: '/echo?city=Z%C3%BCrich+%F0%9F%8C%8D' });
  });

  it('arguments nested deeper than 128 levels are refused, and a response nested that deep fails the call', async () => {
    const { server, h, invokeFailure } = await echoHarness();
    const failure = await invokeFailure('by-query', { city: 'Oslo', anything: deeplyNested(50_000) });
    expect(failure).toMatchObject({ code: 'invalid_params', message: expect.stringContaining('is nested more than 128 levels deep') as unknown });
    await h.putHttpTool('deep', { urlTemplate: `${server.base}/deep` });
    expect(expectError(await h.invoke('deep'), 'decode_failed').message).toContain('nested more than 128 levels deep');
  });

  it('a header value past Latin-1 is refused with the character, from arguments as invalid_args', async () => {
    const { h, invokeFailure } = await echoHarness();
    const failure = await invokeFailure('by-header', { city: 'Zürich 🌍' });
    expect(failure).toMatchObject({ code: 'invalid_args', message: expect.stringContaining('contains U+1F30D, which HTTP headers cannot carry') as unknown });
    // Latin-1 itself goes through as its byte.
    expect(expectOk(await h.invoke('by-header', { city: 'Zürich' })).value).toMatchObject({ city: 'Zürich' });
  });

  it('a header value from a secret past Latin-1 fails the call without showing the secret', async () => {
    const server = await startLoopbackServer({ '/echo': (_request, response) => json(response, 200, {}) });
    const h = await invokeHarness([server.host]);
    await h.call('secrets.put', { name: 'TOKEN', value: 'sk-ключ-42' });
    await h.putHttpTool('secret-header', { urlTemplate: `${server.base}/echo`, headers: { 'X-Token': '${secret.TOKEN}' } });
    const error = expectError(await h.invoke('secret-header'), 'invalid_request');
    expect(error.message).toContain('U+043A');
    expect(error.message).not.toContain('ключ');
    expect(server.seen).toHaveLength(0);
  });

  it('a path argument "." or ".." cannot climb out of its segment', async () => {
    const { server, h, invokeFailure } = await echoHarness();
    for (const p of ['..', '.']) {
      const failure = await invokeFailure('by-path', { p });
      expect(failure).toMatchObject({ code: 'invalid_args', message: expect.stringContaining('would leave its place in the URL') as unknown });
    }
    expect(server.seen).toHaveLength(0);
    // Encoded dots are text, kept as text; dots inside a value are fine.
    expect(expectOk(await h.invoke('by-path', { p: '%2e%2e' })).value).toEqual({ url: '/users/%252e%252e/profile' });
    expect(expectOk(await h.invoke('by-path', { p: 'a..b' })).value).toEqual({ url: '/users/a..b/profile' });
  });

  it('names of Object.prototype are plain names: secrets, arguments and query keys', async () => {
    const { server, h } = await echoHarness();
    await h.putHttpTool('proto-secret', { urlTemplate: `${server.base}/echo`, headers: { 'X-City': '${secret.constructor}' } });
    expect(expectError(await h.invoke('proto-secret'), 'missing_secret').message).toContain('needs the secret constructor, which is not set');
    await h.putHttpTool('proto-arg', { urlTemplate: `${server.base}/echo`, query: { c: '${args.constructor}' } }, { argSchema: { type: 'object', properties: { constructor: { type: 'string' } } } });
    // Not given, so left out: Object.prototype's constructor is not taken for it.
    expect(expectOk(await h.invoke('proto-arg')).value).toMatchObject({ url: '/echo' });
    for (const name of ['toString', 'constructor', '__proto__', 'hasOwnProperty']) {
      expect((await h.failure('secrets.delete', { name })).code).toBe('not_found');
    }
    await h.call('secrets.put', { name: '__proto__', value: 'odd but allowed' });
    await h.call('secrets.put', { name: 'constructor', value: 'also fine' });
    expect((await h.call('secrets.list', {})).secrets.map((secret) => secret.name)).toEqual(['__proto__', 'constructor']);
    // The secret named "constructor" is sent (and masked in the result like any secret).
    expect(expectOk(await h.invoke('proto-secret')).value).toEqual({ url: '/echo', city: '•••' });
    await h.call('secrets.delete', { name: '__proto__' });
    expect((await h.call('secrets.list', {})).secrets.map((secret) => secret.name)).toEqual(['constructor']);
  });

  it('a secret value that is not text is refused when it is stored', async () => {
    const h = await invokeHarness([]);
    const failure = await h.failure('secrets.put', { name: 'BROKEN', value: 'abc\uD800' });
    expect(failure.code).toBe('invalid_params');
  });
});

describe('masking secrets in results', () => {
  it('keeps a JSON result valid when the secret has quotes, backslashes or unicode', async () => {
    const secret = 'pa"ss\\wörd';
    const server = await startLoopbackServer({ '/leak': (_request, response) => json(response, 200, { token: secret, note: `x${secret}y`, [secret]: 'as a key', list: [secret] }) });
    const h = await invokeHarness([server.host]);
    await h.call('secrets.put', { name: 'PASS', value: secret });
    await h.putHttpTool('leaky', { urlTemplate: `${server.base}/leak`, headers: { 'X-Pass': '${secret.PASS}' } });
    const value = expectOk(await h.invoke('leaky')).value;
    expect(value).toEqual({ token: '•••', note: 'x•••y', '•••': 'as a key', list: ['•••'] });
  });
});

describe('the browser host with hostile query keys', () => {
  let subject: InProcessHost;
  beforeAll(async () => {
    subject = await startInProcessHost();
  });
  afterAll(() => subject.stop());

  it('answers __proto__ and constructor keys with 400, and DELETE of an Object.prototype secret with 404', async () => {
    for (const key of ['__proto__', 'constructor', 'toString']) {
      const response = await fetch(`${subject.base}/api/tools/tools?${key}=1`, { headers: subject.authorization });
      expect(response.status).toBe(400);
      expect(((await response.json()) as { error: { code: string } }).error.code).toBe('invalid_params');
    }
    const deleted = await fetch(`${subject.base}/api/secrets/toString`, { method: 'DELETE', headers: subject.authorization });
    expect(deleted.status).toBe(404);
  });
});

import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CoreEvent } from '../../shared/events.js';
import { expectError, expectOk, invokeHarness } from '../../testing/harness/invoke-harness.js';
import { json, startLoopbackServer } from '../../testing/harness/loopback-server.js';

const SECRET = 'sk-live-Zm9vYmFyYmF6cXV4';

describe('secrets', () => {
  it('are write-only: listed by name and date, never by value, and encrypted on disk', async () => {
    const subject = await invokeHarness([]);
    const stored = await subject.call('secrets.put', { name: 'API_KEY', value: SECRET });
    expect(stored).toEqual({ name: 'API_KEY', updatedAt: expect.any(String) as unknown });
    const listed = await subject.call('secrets.list', {});
    expect(listed.secrets).toEqual([stored]);
    expect(listed.storage).toEqual({
      osProtected: false,
      kind: 'key_file',
      where: expect.stringMatching(/secrets?\.key$|\.key$/) as unknown,
      description: expect.stringContaining('not protected by the OS keychain') as unknown,
    });
    expect(JSON.stringify(listed)).not.toContain(SECRET);
    const file = await readFile(path.join(subject.dataDir, 'secrets.json'), 'utf8');
    expect(file).toContain('API_KEY');
    expect(file).not.toContain(SECRET);
    expect(file).not.toContain(Buffer.from(SECRET).toString('base64'));
    await subject.call('secrets.delete', { name: 'API_KEY' });
    expect((await subject.call('secrets.list', {})).secrets).toEqual([]);
    expect((await subject.failure('secrets.delete', { name: 'API_KEY' })).code).toBe('not_found');
  });

  it('never appear in a result, trace, error, snippet, event or log line, even when the server echoes them', async () => {
    const echo = (request: { url: string; headers: object; body: Buffer }) => ({ url: request.url, headers: request.headers, body: request.body.toString() });
    const server = await startLoopbackServer({
      [`/echo/${SECRET}`]: (request, response) => json(response, 200, echo(request)),
      '/echo-fail': (request, response) => json(response, 500, echo(request)),
    });
    const logLines: string[] = [];
    const log = {
      debug: (message: string, fields?: object) => logLines.push(message + JSON.stringify(fields)),
      info: (message: string, fields?: object) => logLines.push(message + JSON.stringify(fields)),
      warn: (message: string, fields?: object) => logLines.push(message + JSON.stringify(fields)),
      error: (message: string, fields?: object) => logLines.push(message + JSON.stringify(fields)),
    };
    const subject = await invokeHarness([server.host], { log });
    const events: CoreEvent[] = [];
    subject.core.events.subscribe((event) => events.push(event));
    await subject.call('secrets.put', { name: 'API_KEY', value: SECRET });
    const impl = {
      method: 'POST' as const,
      query: { key: '${API_KEY}' },
      headers: { 'X-Key': '${secret.API_KEY}' },
      body: { key: '${API_KEY}', wrapped: 'key=${API_KEY}' },
      auth: { kind: 'bearer' as const, token: '${API_KEY}' },
      logging: 'debug' as const,
    };
    await subject.putHttpTool('echo', { ...impl, urlTemplate: `${server.base}/echo/\${API_KEY}` });
    await subject.putHttpTool('echo-fail', { ...impl, urlTemplate: `${server.base}/echo-fail` });

    const ok = expectOk(await subject.invoke('echo', {}, { trace: true }));
    const failed = await subject.invoke('echo-fail', {}, { trace: true });
    expectError(failed, 'http_status');
    // The server really received the secret, in every place.
    expect(server.seen[0]!.headers.authorization).toBe(`Bearer ${SECRET}`);
    expect(server.seen[0]!.body.toString()).toContain(SECRET);

    const everything = JSON.stringify({ ok, failed, events, logLines, list: await subject.call('secrets.list', {}) });
    for (const form of [SECRET, encodeURIComponent(SECRET), Buffer.from(SECRET).toString('base64')]) {
      expect(everything).not.toContain(form);
    }
    expect(JSON.stringify(ok.trace)).toContain('•••');
    expect(ok.trace?.[0]?.request.headers.authorization).toBe('•••');
  });
});

describe('refusals before a call', () => {
  it('rejects arguments that break argSchema with invalid_args and each problem, sending nothing', async () => {
    const server = await startLoopbackServer({});
    const subject = await invokeHarness([server.host]);
    await subject.putHttpTool('typed', { urlTemplate: `${server.base}/x` }, {
      argSchema: { type: 'object', properties: { n: { type: 'integer', minimum: 1 } }, required: ['n'], additionalProperties: false },
    });
    const error = await subject.failure('tools.invoke', { bundleID: subject.bundleID, toolSlug: 'typed', version: 'v1', args: { n: 0, extra: true } });
    expect(error.code).toBe('invalid_args');
    expect(error.httpStatus).toBe(400);
    expect(error.details).toEqual({
      issues: [
        { path: '/', message: 'unknown property "extra"' },
        { path: '/n', message: 'must be 1 or more' },
      ],
    });
    expect(server.connections()).toBe(0);
  });

  it('fills defaults from argSchema', async () => {
    const server = await startLoopbackServer({ '/d': (request, response) => json(response, 200, { url: request.url }) });
    const subject = await invokeHarness([server.host]);
    await subject.putHttpTool('defaults', { urlTemplate: `${server.base}/d`, query: { count: '${count}' } }, {
      argSchema: { type: 'object', properties: { count: { type: 'integer', default: 5 } } },
    });
    expect(expectOk(await subject.invoke('defaults')).value).toEqual({ url: '/d?count=5' });
  });

  it('refuses disabled tools and tools of disabled bundles with tool_disabled', async () => {
    const server = await startLoopbackServer({});
    const subject = await invokeHarness([server.host]);
    await subject.putHttpTool('off', { urlTemplate: `${server.base}/x` }, { isEnabled: false });
    const error = await subject.failure('tools.invoke', { bundleID: subject.bundleID, toolSlug: 'off', version: 'v1' });
    expect(error.code).toBe('tool_disabled');
    expect(error.httpStatus).toBe(409);
  });

  it('refuses an unavailable local tool with tool_unavailable', async () => {
    const subject = await invokeHarness([]);
    await subject.call('tools.put', {
      bundleID: subject.bundleID,
      toolSlug: 'ghost',
      version: 'v1',
      tool: { displayName: 'Ghost', type: 'local', argSchema: { type: 'object' }, impl: { func: 'nowhere.atAll' } },
    });
    expect((await subject.failure('tools.invoke', { bundleID: subject.bundleID, toolSlug: 'ghost', version: 'v1' })).code).toBe('tool_unavailable');
  });

  it('counts each call in the usage metrics, after answering', async () => {
    const server = await startLoopbackServer({ '/u': (_request, response) => json(response, 200, {}) });
    const subject = await invokeHarness([server.host]);
    await subject.putHttpTool('used', { urlTemplate: `${server.base}/u` });
    await subject.invoke('used');
    await subject.invoke('used');
    const tool = await subject.call('tools.get', { bundleID: subject.bundleID, toolSlug: 'used', version: 'v1' });
    expect(tool).toMatchObject({ usage: { callCount: 2, lastCalledAt: expect.any(String) as unknown } });
  });
});

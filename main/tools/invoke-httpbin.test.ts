import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHttpbin } from '../../testing/harness/httpbin.js';
import { expectError, expectOk, invokeHarness, type InvokeHarness } from '../../testing/harness/invoke-harness.js';

// Standard behaviour against a real, widely used HTTP test server.
let httpbin: Awaited<ReturnType<typeof startHttpbin>>;
beforeAll(async () => {
  httpbin = await startHttpbin();
}, 30_000);
afterAll(() => httpbin.stop());

async function harness(): Promise<InvokeHarness> {
  return invokeHarness([httpbin.host]);
}

describe('against python3-httpbin', () => {
  it('/status: a 503 is retried to the end, then reported', async () => {
    const subject = await harness();
    await subject.putHttpTool('status', { urlTemplate: `${httpbin.base}/status/503`, retry: { maxAttempts: 3, retryOnStatus: [503] } });
    const result = await subject.invoke('status');
    expect(expectError(result, 'http_status').status).toBe(503);
    expect(result.attempts).toBe(3);
  });

  it('/delay: a slow answer times out per attempt', async () => {
    const subject = await harness();
    await subject.putHttpTool('delay', { urlTemplate: `${httpbin.base}/delay/3`, timeoutMs: 300 });
    expectError(await subject.invoke('delay'), 'timeout');
  });

  it('/basic-auth: right credentials pass, wrong ones are a 401', async () => {
    const subject = await harness();
    await subject.call('secrets.put', { name: 'HB_PASSWORD', value: 's3cret-pw' });
    await subject.putHttpTool('basic', { urlTemplate: `${httpbin.base}/basic-auth/alice/s3cret-pw`, auth: { kind: 'basic', username: 'alice', password: '${HB_PASSWORD}' } });
    await subject.putHttpTool('basic-wrong', { urlTemplate: `${httpbin.base}/basic-auth/alice/other`, auth: { kind: 'basic', username: 'alice', password: '${HB_PASSWORD}' } });
    expect(expectOk(await subject.invoke('basic')).value).toEqual({ authenticated: true, user: 'alice' });
    expect(expectError(await subject.invoke('basic-wrong'), 'http_status').status).toBe(401);
  });

  it('/bearer: the token arrives, and the echo of it comes back masked', async () => {
    const subject = await harness();
    await subject.call('secrets.put', { name: 'HB_TOKEN', value: 'bearer-token-42' });
    await subject.putHttpTool('bearer', { urlTemplate: `${httpbin.base}/bearer`, auth: { kind: 'bearer', token: '${secret.HB_TOKEN}' } });
    const result = expectOk(await subject.invoke('bearer', {}, { trace: true }));
    expect(result.value).toEqual({ authenticated: true, token: '•••' });
    expect(JSON.stringify(result)).not.toContain('bearer-token-42');
  });

  it('/anything: method, query, headers and JSON body arrive as built', async () => {
    const subject = await harness();
    await subject.putHttpTool(
      'anything',
      { method: 'PATCH', urlTemplate: `${httpbin.base}/anything/\${id}`, query: { tag: '${tags}' }, headers: { 'X-Trace': 'trace-${id}' }, body: { id: '${id}', tags: '${tags}' } },
      { argSchema: { type: 'object', properties: { id: { type: 'integer' }, tags: { type: 'array', items: { type: 'string' } } } } },
    );
    const echoed = expectOk(await subject.invoke('anything', { id: 7, tags: ['a b', 'c'] })).value as {
      method: string;
      url: string;
      args: unknown;
      headers: Record<string, string>;
      json: unknown;
    };
    expect(echoed.method).toBe('PATCH');
    expect(echoed.url).toBe(`${httpbin.base}/anything/7?tag=a+b&tag=c`);
    expect(echoed.args).toEqual({ tag: ['a b', 'c'] });
    expect(echoed.headers['X-Trace']).toBe('trace-7');
    expect(echoed.json).toEqual({ id: 7, tags: ['a b', 'c'] });
  });

  it('/redirect-to: followed to an allowed host, refused to another', async () => {
    const subject = await harness();
    const inside = `${httpbin.base}/get`;
    await subject.putHttpTool('redirect-in', { urlTemplate: `${httpbin.base}/redirect-to`, query: { url: inside } });
    await subject.putHttpTool('redirect-out', { urlTemplate: `${httpbin.base}/redirect-to`, query: { url: 'http://example.com/' } });
    expect((expectOk(await subject.invoke('redirect-in')).value as { url: string }).url).toBe(inside);
    expect(expectError(await subject.invoke('redirect-out'), 'host_not_allowed').message).toContain('example.com');
  });
});

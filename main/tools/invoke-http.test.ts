import type { ServerResponse } from 'node:http';
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { expectError, expectOk, invokeHarness } from '../../testing/harness/invoke-harness.js';
import { json, startLoopbackServer } from '../../testing/harness/loopback-server.js';
import { toolResultText } from '../providers/transcript.js';
import { callResult } from './call-result.js';

const cityArgs = { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } as const;

describe('HTTP tools: building the request', () => {
  it('encodes each value for where it lands: path segment, query, header, JSON body', async () => {
    const server = await startLoopbackServer({ '/cities/a%2F..%2Fb%20c': (_request, response) => json(response, 200, { ok: 1 }) });
    const subject = await invokeHarness([server.host]);
    await subject.putHttpTool(
      'encode',
      {
        method: 'POST',
        urlTemplate: `${server.base}/cities/\${city}`,
        query: { q: '${city}', fixed: 'x&y=z' },
        headers: { 'X-City': 'city=${city}' },
        body: { city: '${city}', note: 'in ${city}' },
      },
      { argSchema: cityArgs },
    );
    expectOk(await subject.invoke('encode', { city: 'a/../b c' }));
    const [request] = server.seen;
    expect(request!.url).toBe('/cities/a%2F..%2Fb%20c?q=a%2F..%2Fb+c&fixed=x%26y%3Dz');
    expect(request!.headers['x-city']).toBe('city=a/../b c');
    expect(request!.headers['content-type']).toBe('application/json');
    expect(JSON.parse(request!.body.toString())).toEqual({ city: 'a/../b c', note: 'in a/../b c' });
  });

  it('keeps the argument type for a lone placeholder and encodes arrays per queryEncoding', async () => {
    const server = await startLoopbackServer({ '/q': (_request, response) => json(response, 200, {}) });
    const subject = await invokeHarness([server.host]);
    const argSchema = { type: 'object', properties: { ids: { type: 'array', items: { type: 'integer' } }, n: { type: 'number' }, on: { type: 'boolean' } } };
    for (const queryEncoding of ['repeat', 'brackets', 'csv'] as const) {
      await subject.putHttpTool(
        `list-${queryEncoding}`,
        { method: 'PUT', urlTemplate: `${server.base}/q`, query: { ids: '${ids}' }, queryEncoding, body: { ids: '${ids}', n: '${n}', on: '${on}', text: 'n=${n}' } },
        { argSchema },
      );
      expectOk(await subject.invoke(`list-${queryEncoding}`, { ids: [1, 2], n: 2.5, on: false }));
    }
    expect(server.seen.map((request) => decodeURIComponent(request.url))).toEqual(['/q?ids=1&ids=2', '/q?ids[]=1&ids[]=2', '/q?ids=1,2']);
    expect(JSON.parse(server.seen[0]!.body.toString())).toEqual({ ids: [1, 2], n: 2.5, on: false, text: 'n=2.5' });
  });

  it('fills a bodyTemplate with values escaped for a JSON string', async () => {
    const server = await startLoopbackServer({ '/t': (_request, response) => json(response, 200, {}) });
    const subject = await invokeHarness([server.host]);
    await subject.putHttpTool('template', { method: 'POST', urlTemplate: `${server.base}/t`, bodyTemplate: '{"say": "${city}"}' }, { argSchema: cityArgs });
    expectOk(await subject.invoke('template', { city: 'he said "hi"\n' }));
    expect(JSON.parse(server.seen[0]!.body.toString())).toEqual({ say: 'he said "hi"\n' });
  });

  it('sends multipart fields and files', async () => {
    const server = await startLoopbackServer({ '/upload': (_request, response) => json(response, 200, {}) });
    const subject = await invokeHarness([server.host]);
    await subject.putHttpTool(
      'upload',
      { method: 'POST', urlTemplate: `${server.base}/upload`, multipart: true, body: { title: '${title}', file: '${file}' } },
      { argSchema: { type: 'object', properties: { title: { type: 'string' }, file: { type: 'object' } } } },
    );
    const file = { filename: 'hello.txt', contentType: 'text/plain', base64: Buffer.from('hello world').toString('base64') };
    expectOk(await subject.invoke('upload', { title: 'Greeting', file }));
    const [request] = server.seen;
    expect(request!.headers['content-type']).toMatch(/^multipart\/form-data; boundary=/);
    const body = request!.body.toString();
    expect(body).toContain('name="title"\r\n\r\nGreeting');
    expect(body).toContain('filename="hello.txt"');
    expect(body).toContain('hello world');
  });

  it('refuses CR/LF in a header value and reports missing inputs and secrets before sending anything', async () => {
    const server = await startLoopbackServer({ '/x': (_request, response) => json(response, 200, {}) });
    const subject = await invokeHarness([server.host]);
    await subject.putHttpTool('header', { urlTemplate: `${server.base}/x`, headers: { 'X-City': 'city=${city}' } }, { argSchema: { type: 'object', properties: { city: { type: 'string' } } } });
    await subject.putHttpTool('secret', { urlTemplate: `${server.base}/x`, headers: { Authorization: 'Bearer ${secret.NOT_SET}' } });
    const injected = await subject.failure('tools.invoke', { bundleID: subject.bundleID, toolSlug: 'header', version: 'v1', args: { city: 'x\r\nX-Injected: 1' } });
    expect(injected).toMatchObject({ code: 'invalid_args', message: expect.stringContaining('contains a line break') as unknown });
    const missing = expectError(await subject.invoke('header', {}), 'missing_input');
    expect(missing.message).toContain('city');
    const secret = expectError(await subject.invoke('secret'), 'missing_secret');
    expect(secret.message).toContain('NOT_SET');
    expect(server.connections()).toBe(0);
  });

  it('leaves out a query parameter, header or body field that is an optional argument not given, and sends a one-argument JSON body as that value', async () => {
    const server = await startLoopbackServer({ '/o': (_request, response) => json(response, 200, {}) });
    const subject = await invokeHarness([server.host]);
    const argSchema = { type: 'object', properties: { q: { type: 'string' }, tag: { type: 'string' }, note: { type: 'string' }, pet: { type: 'object' } } };
    await subject.putHttpTool('optional', { method: 'POST', urlTemplate: `${server.base}/o`, query: { q: '${q}', fixed: '1' }, headers: { 'X-Tag': '${tag}' }, body: { note: '${note}', kind: 'pet' } }, { argSchema });
    await subject.putHttpTool('whole', { method: 'POST', urlTemplate: `${server.base}/o`, headers: { 'Content-Type': 'application/json' }, bodyTemplate: '${pet}' }, { argSchema });
    expectOk(await subject.invoke('optional', {}));
    expectOk(await subject.invoke('optional', { q: 'cats', tag: 'x', note: 'hi' }));
    expectOk(await subject.invoke('whole', { pet: { name: 'Rex', tags: ['a "b"'] } }));
    const [bare, full, whole] = server.seen;
    expect([bare!.url, bare!.headers['x-tag'], JSON.parse(bare!.body.toString())]).toEqual(['/o?fixed=1', undefined, { kind: 'pet' }]);
    expect([full!.url, full!.headers['x-tag'], JSON.parse(full!.body.toString())]).toEqual(['/o?q=cats&fixed=1', 'x', { note: 'hi', kind: 'pet' }]);
    expect(JSON.parse(whole!.body.toString())).toEqual({ name: 'Rex', tags: ['a "b"'] });
  });

  it('applies bearer, basic and API-key auth from secrets', async () => {
    const server = await startLoopbackServer({ '/auth': (_request, response) => json(response, 200, {}) });
    const subject = await invokeHarness([server.host]);
    await subject.call('secrets.put', { name: 'TOKEN', value: 'tok-123456' });
    await subject.call('secrets.put', { name: 'PASSWORD', value: 'p@ss:word' });
    await subject.putHttpTool('bearer', { urlTemplate: `${server.base}/auth`, auth: { kind: 'bearer', token: '${secret.TOKEN}' } });
    await subject.putHttpTool('basic', { urlTemplate: `${server.base}/auth`, auth: { kind: 'basic', username: 'me', password: '${PASSWORD}' } });
    await subject.putHttpTool('key-header', { urlTemplate: `${server.base}/auth`, auth: { kind: 'apiKey', location: 'header', name: 'X-Api-Key', value: '${TOKEN}' } });
    await subject.putHttpTool('key-query', { urlTemplate: `${server.base}/auth`, auth: { kind: 'apiKey', location: 'query', name: 'key', value: '${TOKEN}' } });
    // A template that names the key's parameter too: the key takes its place, once; the rest stays as written.
    await subject.putHttpTool('key-query-named', { urlTemplate: `${server.base}/auth?key=placeholder&list=a,b&Key=other`, auth: { kind: 'apiKey', location: 'query', name: 'key', value: '${TOKEN}' } });
    for (const slug of ['bearer', 'basic', 'key-header', 'key-query', 'key-query-named']) expectOk(await subject.invoke(slug));
    const [bearer, basic, header, query, named] = server.seen;
    expect(named!.url).toBe('/auth?list=a,b&Key=other&key=tok-123456');
    expect(bearer!.headers.authorization).toBe('Bearer tok-123456');
    expect(basic!.headers.authorization).toBe(`Basic ${Buffer.from('me:p@ss:word').toString('base64')}`);
    expect(header!.headers['x-api-key']).toBe('tok-123456');
    expect(query!.url).toBe('/auth?key=tok-123456');
  });

  it('refuses a body over maxRequestBytes without sending it', async () => {
    const server = await startLoopbackServer({});
    const subject = await invokeHarness([server.host]);
    await subject.putHttpTool('big', { method: 'POST', urlTemplate: `${server.base}/x`, body: { text: '${text}' }, limits: { maxRequestBytes: 100 } }, {
      argSchema: { type: 'object', properties: { text: { type: 'string' } } },
    });
    expectError(await subject.invoke('big', { text: 'x'.repeat(200) }), 'request_too_large');
    expect(server.connections()).toBe(0);
  });
});

describe('HTTP tools: the response', () => {
  it('decodes JSON, extracts with JSONPath and validates the output', async () => {
    const server = await startLoopbackServer({
      '/data': (_request, response) => json(response, 200, { results: [{ name: 'Paris', pop: 2.1 }, { name: 'Lyon', pop: 0.5 }] }),
    });
    const subject = await invokeHarness([server.host]);
    await subject.putHttpTool('first', { urlTemplate: `${server.base}/data`, extractExpr: '$.results[0].name' }, { outputSchema: { type: 'string' } });
    await subject.putHttpTool('all', { urlTemplate: `${server.base}/data`, extractExpr: '$.results[*].name' }, { outputSchema: { type: 'array' } });
    await subject.putHttpTool('filter', { urlTemplate: `${server.base}/data`, extractExpr: '$.results[?@.pop > 1].name' });
    await subject.putHttpTool('wrong-output', { urlTemplate: `${server.base}/data`, extractExpr: '$.results[0].pop' }, { outputSchema: { type: 'string' } });
    const first = expectOk(await subject.invoke('first'));
    expect(first).toMatchObject({ value: 'Paris', status: 200, attempts: 1 });
    expect(first.headers?.['content-type']).toBe('application/json');
    expect(expectOk(await subject.invoke('all')).value).toEqual(['Paris', 'Lyon']);
    expect(expectOk(await subject.invoke('filter')).value).toEqual(['Paris']);
    const invalid = expectError(await subject.invoke('wrong-output'), 'output_invalid');
    expect(invalid.issues).toEqual([{ path: '/', message: 'must be text' }]);
    // The answer goes with the problem, for the model and the tester: not only where it differs.
    expect(invalid).toMatchObject({ status: 200, snippet: '2.1' });
    const failed = await subject.invoke('wrong-output');
    const forModel = toolResultText({ id: 'call_1', name: 'wrong-output', args: {}, status: 'failed', result: callResult(failed) });
    expect(forModel.text).toBe('Error (output_invalid): wrong-output returned a value that does not match its outputSchema: / must be text\n\nWhat it answered (HTTP 200): 2.1');
  });

  it('a bundle that takes answers that drift from their schema keeps the value with a warning; the tester gets a refused answer whole', async () => {
    const answer = { name: 'Paris', pop: 2.1, extra: 'x'.repeat(5_000) };
    const server = await startLoopbackServer({ '/city': (_request, response) => json(response, 200, answer) });
    const subject = await invokeHarness([server.host]);
    const schema = { outputSchema: { type: 'object', properties: { name: { type: 'string' }, pop: { type: 'integer' } } } };
    await subject.putHttpTool('city', { urlTemplate: `${server.base}/city` }, schema);

    // Refused by default: the model reads a bounded snippet; a run with a trace (the tester) has the whole answer.
    const refused = expectError(await subject.invoke('city'), 'output_invalid');
    expect(refused.answer).toBeUndefined();
    expect(refused.snippet!.length).toBeLessThan(2_100);
    const traced = expectError(await subject.invoke('city', {}, { trace: true }), 'output_invalid');
    expect(traced.answer).toEqual(answer);
    expect(traced.issues).toEqual([{ path: '/pop', message: expect.stringContaining('whole number') as unknown }]);
    // A chat keeps what the model reads, not the whole answer.
    expect(callResult(await subject.invoke('city', {}, { trace: true }))).not.toHaveProperty('error.answer');

    await subject.call('bundles.put', { bundleID: subject.bundleID, slug: 'test', displayName: 'Test', http: { outputMismatch: 'warn' } });
    const taken = expectOk(await subject.invoke('city'));
    expect(taken.value).toEqual(answer);
    expect(taken.outputMismatch).toEqual({ message: expect.stringContaining('does not match its outputSchema: /pop') as unknown, issues: traced.issues });
    // The model reads the answer and which part of it to doubt.
    const forModel = toolResultText({ id: 'call_1', name: 'city', args: {}, status: 'succeeded', result: callResult(taken) });
    expect(forModel.isError).toBe(false);
    expect(forModel.text).toMatch(/^\{"name":"Paris","pop":2\.1,.*\n\n\[Warning: city returned a value that does not match its outputSchema: \/pop /s);
  });

  it('extracts with a regular expression, and errorMode decides what "nothing found" means', async () => {
    const server = await startLoopbackServer({ '/text': (_request, response) => response.writeHead(200, { 'Content-Type': 'text/plain' }).end('version: 4.2.1\n') });
    const subject = await invokeHarness([server.host]);
    await subject.putHttpTool('regex', { urlTemplate: `${server.base}/text`, extractExpr: '/version: (\\S+)/' });
    await subject.putHttpTool('missing-fail', { urlTemplate: `${server.base}/text`, extractExpr: '/build: (\\d+)/' });
    await subject.putHttpTool('missing-empty', { urlTemplate: `${server.base}/text`, extractExpr: '/build: (\\d+)/', errorMode: 'empty' }, { outputSchema: { type: 'string' } });
    expect(expectOk(await subject.invoke('regex')).value).toBe('4.2.1');
    expectError(await subject.invoke('missing-fail'), 'extract_failed');
    expect(expectOk(await subject.invoke('missing-empty')).value).toBeNull();
  });

  it('reports a non-success status with the status and a snippet, and honours successCodes', async () => {
    const server = await startLoopbackServer({ '/teapot': (_request, response) => json(response, 418, { error: 'short and stout' }) });
    const subject = await invokeHarness([server.host]);
    await subject.putHttpTool('teapot', { urlTemplate: `${server.base}/teapot` });
    await subject.putHttpTool('teapot-ok', { urlTemplate: `${server.base}/teapot`, successCodes: [418] });
    const error = expectError(await subject.invoke('teapot'), 'http_status');
    expect(error).toMatchObject({ status: 418, snippet: '{"error":"short and stout"}' });
    expect(error.message).toContain(`teapot: GET ${server.base}/teapot answered HTTP 418`);
    expect(expectOk(await subject.invoke('teapot-ok')).value).toEqual({ error: 'short and stout' });
  });

  it('says decode_failed for a body that is not the JSON it claims', async () => {
    const server = await startLoopbackServer({ '/bad': (_request, response) => response.writeHead(200, { 'Content-Type': 'application/json' }).end('{not json') });
    const subject = await invokeHarness([server.host]);
    await subject.putHttpTool('bad', { urlTemplate: `${server.base}/bad` });
    expect(expectError(await subject.invoke('bad'), 'decode_failed').snippet).toBe('{not json');
  });

  it('stops reading past maxResponseBytes', async () => {
    const server = await startLoopbackServer({
      '/huge': (_request, response) => {
        response.writeHead(200, { 'Content-Type': 'text/plain' });
        const chunk = 'x'.repeat(64 * 1024);
        let sent = 0;
        const pump = () => {
          while (sent < 200 && response.write(chunk)) sent++;
          if (sent < 200) response.once('drain', pump);
          else response.end();
        };
        pump();
      },
    });
    const subject = await invokeHarness([server.host]);
    await subject.putHttpTool('huge', { urlTemplate: `${server.base}/huge`, limits: { maxResponseBytes: 1024 * 1024 } });
    expect(expectError(await subject.invoke('huge'), 'response_too_large').message).toContain('1048576');
  });

  it('reads gzip, deflate and brotli bodies, and counts the limit in unpacked bytes (a small bomb is stopped)', async () => {
    const payload = JSON.stringify({ items: Array.from({ length: 50 }, (_, id) => ({ id, name: `item ${id}` })) });
    const packed = (encoding: string, body: Buffer) => (_request: unknown, response: ServerResponse) => {
      response.writeHead(200, { 'Content-Type': 'application/json', 'Content-Encoding': encoding, 'Content-Length': body.byteLength }).end(body);
    };
    const server = await startLoopbackServer({
      '/gzip': packed('gzip', gzipSync(payload)),
      '/deflate': packed('deflate', deflateSync(payload)),
      '/br': packed('br', brotliCompressSync(payload)),
      '/bomb': packed('gzip', gzipSync(Buffer.alloc(5 * 1024 * 1024, 0x20))),
    });
    const subject = await invokeHarness([server.host]);
    for (const encoding of ['gzip', 'deflate', 'br']) {
      await subject.putHttpTool(encoding, { urlTemplate: `${server.base}/${encoding}`, extractExpr: '$.items[3].name' });
      expect(expectOk(await subject.invoke(encoding)).value).toBe('item 3');
    }
    await subject.putHttpTool('bomb', { urlTemplate: `${server.base}/bomb`, limits: { maxResponseBytes: 64 * 1024 } });
    expectError(await subject.invoke('bomb'), 'response_too_large');
  });

  it('ends with a network error, not a hang, when the connection drops in the middle of a packed body', async () => {
    const packed = gzipSync(Buffer.alloc(256 * 1024, 0x61));
    const server = await startLoopbackServer({
      '/cut': (_request, response) => {
        response.writeHead(200, { 'Content-Type': 'text/plain', 'Content-Encoding': 'gzip', 'Content-Length': packed.byteLength });
        response.write(packed.subarray(0, 100), () => response.socket?.destroy());
      },
    });
    const subject = await invokeHarness([server.host]);
    await subject.putHttpTool('cut', { urlTemplate: `${server.base}/cut`, timeoutMs: 10_000 });
    expectError(await subject.invoke('cut'), 'network');
  });
});

describe('HTTP tools: time, retries and limits', () => {
  it('cuts an attempt off at timeoutMs, and a call can override it', async () => {
    const server = await startLoopbackServer({ '/slow': (_request, response) => void setTimeout(() => json(response, 200, {}), 2_000) });
    const subject = await invokeHarness([server.host]);
    await subject.putHttpTool('slow', { urlTemplate: `${server.base}/slow`, timeoutMs: 5_000 });
    const error = expectError(await subject.invoke('slow', {}, { timeoutMs: 200 }), 'timeout');
    expect(error.message).toContain('200 ms');
  });

  it('runs many calls nobody can cancel at once without piling listeners on one signal', async () => {
    const server = await startLoopbackServer({ '/x': (_request, response) => json(response, 200, { ok: true }) });
    const subject = await invokeHarness([server.host]);
    await subject.putHttpTool('many', { urlTemplate: `${server.base}/x` });
    const warnings: Error[] = [];
    const onWarning = (warning: Error) => warnings.push(warning);
    process.on('warning', onWarning);
    try {
      const results = await Promise.all(Array.from({ length: 32 }, () => subject.invoke('many')));
      expect(results.every((result) => result.ok)).toBe(true);
      // Warnings are emitted on the next tick.
      await new Promise((resolve) => setImmediate(resolve));
    } finally {
      process.off('warning', onWarning);
    }
    expect(warnings.filter((warning) => warning.name === 'MaxListenersExceededWarning')).toEqual([]);
  });

  it('retries on the listed statuses with backoff, honours Retry-After, and reports each attempt in the trace', async () => {
    const server = await startLoopbackServer({
      '/flaky': (_request, response, index) => {
        if (index === 0) return json(response, 503, { busy: true }, { 'Retry-After': '1' });
        if (index === 1) return json(response, 502, {});
        return json(response, 200, { finally: true });
      },
    });
    const waits: number[] = [];
    const subject = await invokeHarness([server.host], { sleep: async (ms) => void waits.push(ms) });
    await subject.putHttpTool('flaky', {
      urlTemplate: `${server.base}/flaky`,
      retry: { maxAttempts: 4, backoff: 'exponential', initialDelayMs: 100, maxDelayMs: 5_000, retryOnStatus: [502, 503] },
    });
    const result = expectOk(await subject.invoke('flaky', {}, { trace: true }));
    expect(result.attempts).toBe(3);
    expect(result.value).toEqual({ finally: true });
    expect(waits).toEqual([1_000, 200]);
    expect(result.trace?.map((entry) => [entry.response?.status, entry.retryReason, entry.delayBeforeNextMs])).toEqual([
      [503, 'HTTP 503 is in retryOnStatus', 1_000],
      [502, 'HTTP 502 is in retryOnStatus', 200],
      [200, undefined, undefined],
    ]);
  });

  it('never repeats a POST unless the tool allows it', async () => {
    const server = await startLoopbackServer({ '/post': (_request, response) => json(response, 503, {}) });
    const subject = await invokeHarness([server.host]);
    const retry = { maxAttempts: 3, retryOnStatus: [503] };
    await subject.putHttpTool('post', { method: 'POST', urlTemplate: `${server.base}/post`, retry });
    await subject.putHttpTool('post-unsafe', { method: 'POST', urlTemplate: `${server.base}/post`, retry: { ...retry, allowUnsafe: true } });
    expect(expectError(await subject.invoke('post'), 'http_status')).toMatchObject({ status: 503 });
    expect(server.seen).toHaveLength(1);
    expect((await subject.invoke('post-unsafe')).attempts).toBe(3);
    expect(server.seen).toHaveLength(4);
  });

  it('retries network errors, and gives up when Retry-After is longer than the tool waits', async () => {
    const server = await startLoopbackServer({
      '/drop': (request, response, index) => {
        if (index === 0) response.socket?.destroy();
        else json(response, 200, { recovered: true });
      },
      '/later': (_request, response) => json(response, 429, {}, { 'Retry-After': '3600' }),
    });
    const subject = await invokeHarness([server.host]);
    await subject.putHttpTool('drop', { urlTemplate: `${server.base}/drop`, retry: { maxAttempts: 2 } });
    await subject.putHttpTool('later', { urlTemplate: `${server.base}/later`, retry: { maxAttempts: 3, maxDelayMs: 1_000 } });
    expect(expectOk(await subject.invoke('drop'))).toMatchObject({ attempts: 2, value: { recovered: true } });
    const later = expectError(await subject.invoke('later'), 'http_status');
    expect(later.message).toContain('retry after 3600 s');
    expect(server.requestsTo('/later')).toHaveLength(1);
  });

  it('refuses calls over the rate limit at once, sending nothing', async () => {
    const server = await startLoopbackServer({ '/limited': (_request, response) => json(response, 200, {}) });
    const subject = await invokeHarness([server.host]);
    await subject.putHttpTool('limited', { urlTemplate: `${server.base}/limited`, rateLimit: { maxCallsPerMinute: 2 } });
    expectOk(await subject.invoke('limited'));
    expectOk(await subject.invoke('limited'));
    const error = expectError(await subject.invoke('limited'), 'rate_limited');
    expect(error.message).toContain('try again in');
    expect(server.seen).toHaveLength(2);
  });

  it('a cancelled call stops waiting and says so', async () => {
    const server = await startLoopbackServer({ '/never': () => {} });
    const subject = await invokeHarness([server.host]);
    await subject.putHttpTool('never', { urlTemplate: `${server.base}/never` });
    const controller = new AbortController();
    const pending = subject.core.dispatcher.call(
      'tools.invoke',
      { bundleID: subject.bundleID, toolSlug: 'never', version: 'v1' },
      { transport: 'internal', signal: controller.signal },
    );
    setTimeout(() => controller.abort(), 100);
    const result = (await pending) as Awaited<ReturnType<typeof subject.invoke>>;
    expectError(result, 'cancelled');
  });
});

describe('allowed hosts', () => {
  it('refuses a host that is not allowed before any connection', async () => {
    const server = await startLoopbackServer({ '/x': (_request, response) => json(response, 200, {}) });
    const subject = await invokeHarness(['api.example.com']);
    await subject.putHttpTool('blocked', { urlTemplate: `${server.base}/x` });
    const error = expectError(await subject.invoke('blocked'), 'host_not_allowed');
    expect(error.message).toContain(`${server.host} is not an allowed host`);
    expect(server.connections()).toBe(0);
  });

  it('checks every redirect hop, and drops Authorization when the origin changes', async () => {
    const target = await startLoopbackServer({ '/landing': (_request, response) => json(response, 200, { landed: true }) });
    const blocked = await startLoopbackServer({ '/trap': (_request, response) => json(response, 200, {}) });
    const start = await startLoopbackServer({
      '/same': (_request, response) => response.writeHead(302, { Location: '/final' }).end(),
      '/final': (_request, response) => json(response, 200, { same: true }),
      '/cross': (_request, response) => response.writeHead(307, { Location: `${target.base}/landing` }).end(),
      '/bad': (_request, response) => response.writeHead(302, { Location: `${blocked.base}/trap` }).end(),
    });
    const subject = await invokeHarness([start.host, target.host]);
    await subject.call('secrets.put', { name: 'TOKEN', value: 'redirect-secret-1' });
    const auth = { kind: 'bearer' as const, token: '${TOKEN}' };
    await subject.putHttpTool('same', { urlTemplate: `${start.base}/same`, auth });
    await subject.putHttpTool('cross', { urlTemplate: `${start.base}/cross`, auth });
    await subject.putHttpTool('bad', { urlTemplate: `${start.base}/bad` });

    expect(expectOk(await subject.invoke('same')).value).toEqual({ same: true });
    expect(start.requestsTo('/final')[0]!.headers.authorization).toBe('Bearer redirect-secret-1');

    const cross = expectOk(await subject.invoke('cross', {}, { trace: true }));
    expect(cross.value).toEqual({ landed: true });
    expect(target.seen[0]!.headers.authorization).toBeUndefined();
    expect(cross.trace?.[0]?.redirects).toEqual([{ status: 307, location: `${target.base}/landing` }]);

    const bad = expectError(await subject.invoke('bad'), 'host_not_allowed');
    expect(bad.message).toContain('redirected to');
    expect(blocked.connections()).toBe(0);
  });
});

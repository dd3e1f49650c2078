import type { ServerResponse } from 'node:http';
import { gzipSync } from 'node:zlib';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { describe, expect, it, onTestFinished } from 'vitest';
import type { CoreEvent } from '../../../shared/events.js';
import type { InvokeResult } from '../../../shared/schemas/invocation.js';
import { expectError, expectOk, invokeHarness } from '../../../testing/harness/invoke-harness.js';
import { startLoopbackServer } from '../../../testing/harness/loopback-server.js';
import { sharingCore } from '../../../testing/harness/mcp-share-harness.js';
import { startChatHarness } from '../../../testing/harness/chat-harness.js';
import { newID } from '../../../testing/data/fixtures.js';
import { MASK } from '../../common/redact.js';

function eventStream(response: ServerResponse, headers: Record<string, string> = {}): ServerResponse {
  response.writeHead(200, { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-cache', ...headers });
  response.flushHeaders();
  return response;
}

/** A chat completion as OpenAI streams it: one JSON chunk per token, then [DONE]. */
const TOKENS = ['Hel', 'lo', ', ', 'world'];
const completion = TOKENS.map((token) => `data: ${JSON.stringify({ choices: [{ delta: { content: token } }] })}\n\n`).join('') + 'data: [DONE]\n\n';

describe('HTTP tools that stream (responseEncoding "sse")', () => {
  it('reads events as the standard says: data over lines, event, id, comments and retry; JSON data parsed; extractExpr over the list', async () => {
    const server = await startLoopbackServer({
      '/chat': (_request, response) => void eventStream(response).end(completion),
      '/mixed': (_request, response) =>
        void eventStream(response).end(': a comment\nretry: 5000\nevent: note\nid: 7\ndata: first line\ndata: second line\n\ndata: {"n": 1}\r\n\r\nretry: nonsense\ndata:  spaced\n\n'),
    });
    const subject = await invokeHarness([server.host]);
    await subject.putHttpTool('chat', { method: 'POST', urlTemplate: `${server.base}/chat`, responseEncoding: 'sse', extractExpr: '$[*].choices[0].delta.content' });
    await subject.putHttpTool('mixed', { urlTemplate: `${server.base}/mixed`, responseEncoding: 'sse' });
    expect(expectOk(await subject.invoke('chat')).value).toEqual(TOKENS);
    expect(expectOk(await subject.invoke('mixed')).value).toEqual(['first line\nsecond line', { n: 1 }, ' spaced']);
  });

  it('shows each event as progress while it runs, its secrets masked, and keeps what came when the server stops mid-event', async () => {
    let finish: (() => void) | undefined;
    const server = await startLoopbackServer({
      '/tail': (request, response) => {
        eventStream(response).write(`data: ${JSON.stringify({ line: 'started', key: request.headers['x-key'] })}\n\n`);
        finish = () => response.end('data: {"line": "last, never finished"}');
      },
    });
    const subject = await invokeHarness([server.host]);
    await subject.call('secrets.put', { name: 'TAIL_KEY', value: 's3cr3t"x' });
    await subject.putHttpTool('tail', { urlTemplate: `${server.base}/tail`, headers: { 'X-Key': '${secret.TAIL_KEY}' }, responseEncoding: 'sse' });
    const progress: Extract<CoreEvent, { type: 'tools.progress' }>[] = [];
    const firstEvent = new Promise<void>((resolve) =>
      subject.core.events.subscribe((event) => {
        if (event.type !== 'tools.progress' || event.progressId !== 'tail-run') return;
        progress.push(event);
        resolve();
      }),
    );
    const running = subject.call('tools.invoke', { bundleID: subject.bundleID, toolSlug: 'tail', version: 'v1', args: {}, progressId: 'tail-run' });
    await firstEvent;
    expect(progress[0]).toMatchObject({ progress: 1, message: expect.stringContaining('started') as unknown });
    expect(progress[0]!.message).not.toContain('s3cr3t');
    finish!();
    const result = expectOk(await running);
    expect(result.value).toEqual([{ line: 'started', key: MASK }, { line: 'last, never finished' }]);
  });

  it('cancel stops reading and closes the connection; the idle timeout and the overall timeout end a stream that never does, keeping what came', async () => {
    const closed: string[] = [];
    const server = await startLoopbackServer({
      '/forever': (request, response) => {
        eventStream(response).write('data: one\n\n');
        response.on('close', () => closed.push(request.url));
      },
      '/silent': (_request, response) => void eventStream(response).write(': keep-alive\n\n'),
    });
    const subject = await invokeHarness([server.host]);
    await subject.putHttpTool('forever', { urlTemplate: `${server.base}/forever`, responseEncoding: 'sse', limits: { idleTimeoutMs: 300 } });
    await subject.putHttpTool('forever-long', { urlTemplate: `${server.base}/forever?long`, responseEncoding: 'sse', timeoutMs: 400 });
    await subject.putHttpTool('silent', { urlTemplate: `${server.base}/silent`, responseEncoding: 'sse', limits: { idleTimeoutMs: 200 } });
    expect(expectOk(await subject.invoke('forever')).value).toEqual(['one']);
    expect(expectOk(await subject.invoke('forever-long')).value).toEqual(['one']);
    expect(expectError(await subject.invoke('silent'), 'timeout').message).toMatch(/no event came within 200 ms/);

    const started = new Promise<void>((resolve) => subject.core.events.subscribe((event) => event.type === 'tools.progress' && event.progressId === 'cancel-me' && resolve()));
    // As the window calls: the call named, so calls.cancel can reach it.
    const running = subject.core.dispatcher.call('tools.invoke', { bundleID: subject.bundleID, toolSlug: 'forever', version: 'v1', args: {}, progressId: 'cancel-me' }, { transport: 'internal', callId: 'cancel-me' }) as Promise<InvokeResult>;
    await started;
    await subject.call('calls.cancel', { callId: 'cancel-me' });
    expectError(await running, 'cancelled');
    // Each of the three reads of /forever let go of its connection: the idle one, the timed-out one, the cancelled one.
    await expect.poll(() => closed.length).toBe(3);
  });

  it('reads a stream to its end while its events come more often than its idle timeout, however long it lasts', async () => {
    const server = await startLoopbackServer({
      '/ticking': (_request, response) => {
        const stream = eventStream(response);
        let sent = 0;
        const tick = setInterval(() => {
          stream.write(`data: {"tick":${++sent}}\n\n`);
          if (sent === 10) {
            clearInterval(tick);
            stream.end();
          }
        }, 40);
        response.on('close', () => clearInterval(tick));
      },
    });
    const subject = await invokeHarness([server.host]);
    // 10 events 40 ms apart: the stream lasts 400 ms, longer than its idle timeout, and is never idle that long.
    await subject.putHttpTool('ticking', { urlTemplate: `${server.base}/ticking`, responseEncoding: 'sse', limits: { idleTimeoutMs: 250 } });
    expect(expectOk(await subject.invoke('ticking')).value).toEqual(Array.from({ length: 10 }, (_, index) => ({ tick: index + 1 })));
  });

  it('cuts a stream at the tool’s size limit: an event that never ends, a line with no newline, a flood; compressed streams are read as they come', async () => {
    const server = await startLoopbackServer({
      '/huge-event': (_request, response) => void eventStream(response).end(`data: ${'x'.repeat(200_000)}\n\n`),
      '/no-newline': (_request, response) => {
        const stream = eventStream(response);
        const chunk = 'y'.repeat(16_384);
        const pump = () => {
          while (stream.write(chunk));
          stream.once('drain', pump);
        };
        pump();
      },
      '/flood': (_request, response) => {
        const stream = eventStream(response);
        const pump = () => {
          while (stream.write('data: {"tick": 1}\n\n'));
          stream.once('drain', pump);
        };
        pump();
      },
      '/gzip': (_request, response) => void eventStream(response, { 'Content-Encoding': 'gzip' }).end(gzipSync(completion)),
    });
    const subject = await invokeHarness([server.host]);
    for (const slug of ['huge-event', 'no-newline', 'flood']) {
      await subject.putHttpTool(slug, { urlTemplate: `${server.base}/${slug}`, responseEncoding: 'sse', limits: { maxResponseBytes: 100_000 } });
      expect(expectError(await subject.invoke(slug), 'response_too_large').message, slug).toMatch(/larger than the tool's limit of 100000 bytes/);
    }
    await subject.putHttpTool('gzip', { urlTemplate: `${server.base}/gzip`, responseEncoding: 'sse', extractExpr: '$[*].choices[0].delta.content' });
    expect(expectOk(await subject.invoke('gzip')).value).toEqual(TOKENS);
  });

  it('an answer that is not a success is read whole as text, as for any tool', async () => {
    const server = await startLoopbackServer({ '/down': (_request, response) => void response.writeHead(503, { 'Content-Type': 'text/plain' }).end('maintenance') });
    const subject = await invokeHarness([server.host]);
    await subject.putHttpTool('down', { urlTemplate: `${server.base}/down`, responseEncoding: 'sse' });
    expect(expectError(await subject.invoke('down'), 'http_status')).toMatchObject({ message: expect.stringContaining('HTTP 503') as unknown });
  });

  it('an OpenAPI operation answering text/event-stream (and nothing JSON) imports as a streaming tool, and runs', async () => {
    const server = await startLoopbackServer({ '/v1/chat': (_request, response) => void eventStream(response).end(completion) });
    const subject = await invokeHarness([server.host]);
    const description = {
      openapi: '3.1.0',
      info: { title: 'Streams', version: '1' },
      servers: [{ url: server.base }],
      paths: {
        '/v1/chat': { post: { operationId: 'streamChat', responses: { '200': { description: 'Tokens as they come', content: { 'text/event-stream': { schema: { type: 'string' } } } } } } },
        '/v1/both': { post: { operationId: 'either', responses: { '200': { description: 'JSON, or a stream when asked', content: { 'application/json': { schema: { type: 'object' } }, 'text/event-stream': {} } } } } },
      },
    };
    const text = JSON.stringify(description);
    const bundleID = newID();
    const plan = await subject.call('imports.openapiPreview', { source: { text }, bundleID });
    const [chat, both] = plan.operations;
    expect(chat!.tool).toMatchObject({ impl: { responseEncoding: 'sse' } });
    expect(chat!.tool).not.toHaveProperty('outputSchema');
    expect(both!.tool!.impl).not.toHaveProperty('responseEncoding');
    await subject.call('imports.openapiApply', { previewId: plan.previewId, bundleID, operations: [chat!.key], allowHosts: plan.hosts });
    const result = expectOk(await subject.call('tools.invoke', { bundleID, toolSlug: chat!.slug, version: 'v1', args: {} }));
    expect((result.value as unknown[]).at(-1)).toBe('[DONE]');
  });

  it('an MCP client of Toolbelt’s server that asked for progress hears the events as they come', async () => {
    let finish: (() => void) | undefined;
    const server = await startLoopbackServer({
      '/build': (_request, response) => {
        eventStream(response).write('data: {"step": "compile"}\n\n');
        finish = () => response.end('data: {"step": "test"}\n\ndata: {"step": "done"}\n\n');
      },
    });
    const { subject, bundleID, url, token, weather } = await sharingCore();
    await subject.call('settings.patch', { allowedHosts: [weather.host, server.host] });
    await subject.call('tools.put', { bundleID, toolSlug: 'build', version: 'v1', tool: { displayName: 'Build status', type: 'http', argSchema: { type: 'object', properties: {} }, impl: { method: 'GET', urlTemplate: `${server.base}/build`, responseEncoding: 'sse' } } });
    const client = new Client({ name: 'Progress client', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { Authorization: `Bearer ${token}` } } }));
    onTestFinished(() => client.close());
    const notices: string[] = [];
    let heardFirst: () => void;
    const first = new Promise<void>((resolve) => (heardFirst = resolve));
    const calling = client.callTool({ name: 'build', arguments: {} }, undefined, {
      onprogress: ({ message }) => {
        notices.push(message ?? '');
        heardFirst();
      },
    });
    await first;
    expect(notices[0]).toBe('{"step":"compile"}');
    finish!();
    const result = await calling;
    expect(JSON.parse((result.content as { text: string }[])[0]!.text)).toEqual([{ step: 'compile' }, { step: 'test' }, { step: 'done' }]);
  });

  it('a chat’s card shows the latest event of a burst while the stream waits, not only the burst’s first', async () => {
    let finish: (() => void) | undefined;
    const h = await startChatHarness({
      weatherRoute: (_request, response) => {
        eventStream(response).write('data: {"n": 1}\n\n');
        setTimeout(() => response.write('data: {"n": 2}\n\n'), 10);
        finish = () => response.end();
        return new Promise<void>(() => undefined);
      },
    });
    await h.call('tools.put', { bundleID: h.bundleID, toolSlug: 'ticks', version: 'v1', tool: { displayName: 'Ticks', type: 'http', argSchema: { type: 'object', properties: {} }, impl: { method: 'GET', urlTemplate: `${h.server.base}/weather`, responseEncoding: 'sse' } } });
    await h.provider('script', { kind: 'scripted', displayName: 'Script', script: [{ toolCalls: [{ name: 'ticks', args: {} }] }, { text: 'Done.' }] });
    const chat = await h.chat({ providerId: 'script', tools: { mode: 'auto', selected: [h.tool('ticks')] } });
    await h.call('chats.send', { chatId: chat.id, content: 'tick' });
    // The second event came 10 ms after the first: within the card's tenth of a second, so it is sent when that is over.
    await h.until(() => h.events.some(({ event }) => event.type === 'tool-call' && event.call.progress?.progress === 2));
    const shown = h.events.flatMap(({ event }) => (event.type === 'tool-call' && event.call.progress ? [event.call.progress] : [])).at(-1);
    expect(shown).toMatchObject({ progress: 2, message: '{"n":2}' });
    finish!();
    await h.settled(chat.id);
  });
});


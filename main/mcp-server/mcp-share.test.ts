import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { spawn } from 'node:child_process';
import path from 'node:path';
import { onTestFinished, describe, expect, it, vi } from 'vitest';
import { nextQuestion } from '../../testing/harness/live-questions.js';
import { CORE_BUNDLE } from '../../testing/data/fixtures.js';
import { sharingCore, waitFor } from '../../testing/harness/mcp-share-harness.js';
import { manualClock } from '../../testing/harness/test-core.js';
import { rawRequest } from '../../testing/harness/raw-request.js';
import { PROJECT_ROOT } from '../../testing/cores/spawned-host.js';
import { MAX_SESSIONS } from './http-endpoint.js';

async function connect(url: string, token: string, name = 'Test client'): Promise<Client> {
  const client = new Client({ name, version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { Authorization: `Bearer ${token}` } } }));
  onTestFinished(() => client.close());
  return client;
}

const text = (result: unknown) => ((result as CallToolResult).content[0] as { text: string }).text;

describe('Toolbelt as an MCP server (Streamable HTTP, the official SDK client)', () => {
  it('lists the shared bundle’s tools with their schema and what they do, and runs one against its server', async () => {
    const { subject, url, token } = await sharingCore();
    const client = await connect(url, token);
    expect(client.getServerVersion()?.name).toBe('toolbelt');
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual(['clear-alerts', 'forecast']);
    const forecast = tools.find((tool) => tool.name === 'forecast')!;
    expect(forecast).toMatchObject({ title: 'City forecast', description: 'The sky over a city.', inputSchema: { type: 'object', required: ['city'] }, annotations: { readOnlyHint: true } });
    expect(tools.find((tool) => tool.name === 'clear-alerts')!.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: true });

    const result = await client.callTool({ name: 'forecast', arguments: { city: 'Paris' } });
    expect(result.isError).toBeFalsy();
    expect(JSON.parse(text(result))).toEqual({ city: 'Paris', sky: 'clear' });
    // Bad arguments come back as a failed call the model can read and correct.
    const wrong = await client.callTool({ name: 'forecast', arguments: { town: 'Paris' } });
    expect(wrong.isError).toBe(true);
    expect(text(wrong)).toContain('city');

    const status = await subject.call('mcpShare.status', {});
    expect(status).toMatchObject({ state: 'running', toolCount: 2, clients: [{ name: 'Test client' }] });
    const { calls } = await waitFor(() => subject.call('mcpShare.activity', {}), ({ calls }) => calls.length === 2);
    expect(calls[1]).toMatchObject({ client: 'Test client', tool: 'forecast', displayName: 'City forecast', ok: true, approval: 'not-needed' });
    expect(calls[0]).toMatchObject({ ok: false, errorCode: 'invalid_args' });
  });

  it('says a client that left without ending its session is quiet since its last request, and ends that session after an hour', async () => {
    const clock = manualClock();
    const { subject, url, token } = await sharingCore({ clock });
    const client = await connect(url, token, 'Leaves quietly');
    await client.listTools();
    // The SDK client keeps an event stream open while it is connected.
    const connected = await waitFor(() => subject.call('mcpShare.status', {}), ({ clients }) => clients[0]?.open === true);
    expect(connected.clients).toEqual([{ name: 'Leaves quietly', open: true, lastSeenAt: clock.now().toISOString() }]);

    clock.advance(5 * 60_000);
    // Closing the transport drops its stream and sends no DELETE: the session stays, but nothing is open any more.
    await client.close();
    const left = await waitFor(() => subject.call('mcpShare.status', {}), ({ clients }) => clients[0]?.open === false);
    expect(left.clients).toEqual([{ name: 'Leaves quietly', open: false, lastSeenAt: clock.now().toISOString() }]);

    clock.advance(61 * 60_000);
    const after = await subject.call('mcpShare.status', {});
    expect(after.clients).toEqual([]);
    const { calls } = await waitFor(() => subject.call('mcpShare.activity', {}), ({ calls }) => calls.some((entry) => entry.event === 'session-ended'));
    expect(calls.find((entry) => entry.event === 'session-ended')).toMatchObject({ client: 'Leaves quietly', result: expect.stringContaining('after an hour without a request') as unknown });
  });

  it('keeps a client that asked for progress waiting while the person takes longer than its timeout to decide', async () => {
    const { subject, url, token, weather } = await sharingCore({ waitingNoticeMs: 200 });
    const client = await connect(url, token, 'Claude');
    const notices: string[] = [];
    // A client that gives up after 800 ms without news, as the SDK's do after a minute.
    const options = { timeout: 800, resetTimeoutOnProgress: true, onprogress: (progress: { message?: string }) => notices.push(progress.message ?? '') };
    const pending = client.callTool({ name: 'clear-alerts', arguments: { city: 'Paris' } }, undefined, options);
    const question = await nextQuestion(subject.core);
    // Five notices 200 ms apart: well past the 800 ms after which the client would have given up without them.
    await vi.waitFor(() => expect(notices.length).toBeGreaterThanOrEqual(5), { timeout: 5_000 });
    await subject.call('questions.answer', { id: question.id, answer: { action: 'accept', content: {} } });
    const allowed = await pending;
    expect(allowed.isError).toBeFalsy();
    expect(weather.seen.filter((request) => request.url.startsWith('/alerts'))).toHaveLength(1);
    expect(notices.length).toBeGreaterThanOrEqual(3);
    expect(notices[0]).toBe('Waiting for the person to approve Clear alerts in Toolbelt.');
  });

  it('ends a call its client cancels while the person is asked to approve it, whether or not the client can show forms', async () => {
    const { subject, url, token, weather } = await sharingCore();
    const withForms = new Client({ name: 'Form client', version: '1.0.0' }, { capabilities: { elicitation: { form: {} } } });
    await withForms.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { Authorization: `Bearer ${token}` } } }));
    onTestFinished(() => withForms.close());
    for (const [name, client] of [['Plain client', await connect(url, token, 'Plain client')], ['Form client', withForms]] as const) {
      const cancel = new AbortController();
      const pending = client.callTool({ name: 'clear-alerts', arguments: { city: 'Paris' } }, undefined, { signal: cancel.signal });
      await nextQuestion(subject.core);
      cancel.abort('The person pressed Stop in the client.');
      await expect(pending).rejects.toThrow();
      // The question is withdrawn from Toolbelt's window, the tool never ran, and the activity says how the call ended.
      await waitFor(() => subject.call('questions.list', {}), ({ questions }) => questions.length === 0);
      const { calls } = await waitFor(() => subject.call('mcpShare.activity', {}), ({ calls }) => calls[0]?.client === name);
      expect(calls[0]).toMatchObject({ tool: 'clear-alerts', ok: false, errorCode: 'cancelled' });
    }
    expect(weather.seen.filter((request) => request.url.startsWith('/alerts'))).toHaveLength(0);
  });

  it('asks the person through the client when a tool asks the user and the client can show a form', async () => {
    const { subject, url, token } = await sharingCore();
    await subject.call('mcpShare.shareBundle', { bundleID: CORE_BUNDLE, shared: true });
    const asking = new Client({ name: 'Form client', version: '1.0.0' }, { capabilities: { elicitation: { form: {} } } });
    const asked: string[] = [];
    asking.setRequestHandler(ElicitRequestSchema, (request) => {
      asked.push(request.params.message);
      return { action: 'accept', content: { answer: 'Blue' } };
    });
    await asking.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { Authorization: `Bearer ${token}` } } }));
    onTestFinished(() => asking.close());
    const answered = await asking.callTool({ name: 'ask-user', arguments: { question: 'Which colour?', choices: ['Red', 'Blue'] } });
    expect(answered.isError).toBeFalsy();
    expect(JSON.parse(text(answered))).toEqual({ answer: 'Blue' });
    expect(asked).toEqual(['Which colour?']);
    // A client that keeps no stream open for the server's own requests (its GET refused) is asked on the call's stream.
    const noListening = new Client({ name: 'Form client without a listening stream', version: '1.0.0' }, { capabilities: { elicitation: { form: {} } } });
    noListening.setRequestHandler(ElicitRequestSchema, (request) => {
      asked.push(request.params.message);
      return { action: 'accept', content: { answer: 'Red' } };
    });
    const refuseGet: typeof fetch = (input, init) => (init?.method === 'GET' ? Promise.resolve(new Response(null, { status: 405 })) : fetch(input, init));
    await noListening.connect(new StreamableHTTPClientTransport(new URL(url), { fetch: refuseGet, requestInit: { headers: { Authorization: `Bearer ${token}` } } }));
    onTestFinished(() => noListening.close());
    const answeredOnCall = await noListening.callTool({ name: 'ask-user', arguments: { question: 'Which shape?' } }, undefined, { timeout: 10_000 });
    expect(JSON.parse(text(answeredOnCall))).toEqual({ answer: 'Red' });
    expect(asked).toEqual(['Which colour?', 'Which shape?']);
    // A client without forms gets the tool's own refusal, as a failed call.
    const plain = await connect(url, token);
    const refused = await plain.callTool({ name: 'ask-user', arguments: { question: 'Which colour?' } });
    expect(refused.isError).toBe(true);
    expect(text(refused)).toContain('there is no one to ask here');
  });

  it('refuses a wrong token, a foreign Origin and a foreign Host, and is off until switched on', async () => {
    const { subject, url, token, port } = await sharingCore();
    const initialize = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x', version: '1' } } });
    const headers = { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' };
    const wrongToken = await rawRequest(url, { method: 'POST', headers: { ...headers, Authorization: 'Bearer nope' }, body: initialize });
    expect(wrongToken.status).toBe(401);
    expect(wrongToken.body).toContain('Copy the connection settings again');
    const foreignOrigin = await rawRequest(url, { method: 'POST', headers: { ...headers, Authorization: `Bearer ${token}`, Origin: 'https://evil.example' }, body: initialize });
    expect(foreignOrigin.status).toBe(403);
    const rebinding = await rawRequest(url, { method: 'POST', headers: { ...headers, Authorization: `Bearer ${token}`, Host: `evil.example:${port}` }, body: initialize });
    expect(rebinding.status).toBe(403);
    const ok = await rawRequest(url, { method: 'POST', headers: { ...headers, Authorization: `Bearer ${token}` }, body: initialize });
    expect(ok.status).toBe(200);
    // Exactly the listener's own name and port: 127.0.0.1 or localhost on its port, nothing else that also means this machine.
    for (const host of [`localhost:${port}`, `127.0.0.1:${port}`]) {
      const own = await rawRequest(url, { method: 'POST', headers: { ...headers, Authorization: `Bearer ${token}`, Host: host, Origin: `http://${host}` }, body: initialize });
      expect(own.status, host).toBe(200);
    }
    for (const host of ['127.0.0.1', `[::1]:${port}`, `127.0.0.1.:${port}`, 'localhost:1']) {
      const elsewhere = await rawRequest(url, { method: 'POST', headers: { ...headers, Authorization: `Bearer ${token}`, Host: host }, body: initialize });
      expect(elsewhere.status, host).toBe(403);
    }
    const otherPort = await rawRequest(url, { method: 'POST', headers: { ...headers, Authorization: `Bearer ${token}`, Origin: `http://127.0.0.1:${port + 1}` }, body: initialize });
    expect(otherPort.status).toBe(403);
    const foreignName = await rawRequest(url, { method: 'POST', headers: { ...headers, Authorization: `Bearer ${token}`, Host: `evil.example:${port}`, Origin: `http://evil.example:${port}` }, body: initialize });
    expect(foreignName.status).toBe(403);

    // A new token locks out the old one; switched off, nothing listens.
    await subject.call('mcpShare.configure', { newToken: true });
    const { token: fresh } = await subject.call('mcpShare.connection', {});
    expect(fresh).not.toBe(token);
    await expect(connect(url, token)).rejects.toThrow();
    await connect(url, fresh);
    await subject.call('mcpShare.configure', { enabled: false });
    expect((await subject.call('mcpShare.status', {})).state).toBe('off');
    await expect(rawRequest(url, { method: 'POST', headers, body: initialize })).rejects.toThrow(/ECONNREFUSED/);
  });

  it('survives hostile requests and arguments, and goes on serving', async () => {
    const { subject, url, token } = await sharingCore();
    const headers = { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', Authorization: `Bearer ${token}` };
    const huge = await rawRequest(url, { method: 'POST', headers, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { padding: 'x'.repeat(5 * 1024 * 1024) } }) });
    expect(huge.status).toBe(413);
    const broken = await rawRequest(url, { method: 'POST', headers, body: '{"jsonrpc": "2.0", "id": 1, "method": "initia' });
    expect(broken.status).toBe(400);
    expect(broken.body).toContain('not valid JSON');
    const wrongType = await rawRequest(url, { method: 'POST', headers: { ...headers, 'Content-Type': 'text/plain' }, body: '{}' });
    expect(wrongType.status).toBe(415);
    expect(wrongType.body).toContain('Content-Type: application/json');
    const unknownSession = await rawRequest(url, { method: 'POST', headers: { ...headers, 'mcp-session-id': '../../etc/passwd' }, body: '{"jsonrpc":"2.0","id":2,"method":"tools/list"}' });
    expect(unknownSession.status).toBe(404);

    const client = await connect(url, token);
    for (const name of ['__proto__', 'constructor', 'toString', '../forecast']) {
      await expect(client.callTool({ name, arguments: {} })).rejects.toThrow(/no shared tool named/);
    }
    // Nesting deeper than the SDK client itself can send goes in raw: refused, not a crash.
    const deepBody = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":${'{"a":'.repeat(100_000)}1${'}'.repeat(100_000)}}`;
    expect((await rawRequest(url, { method: 'POST', headers, body: deepBody })).status).toBeLessThan(500);
    let nested: Record<string, unknown> = { city: 'deep' };
    for (let depth = 0; depth < 300; depth++) nested = { inner: nested };
    // What the core cannot carry is refused before anything walks it, as through the operation table.
    for (const [args, problem] of [
      [{ city: '\ud800 lone surrogate' }, 'lone UTF-16 surrogate'],
      [{ city: 'Paris', ...nested }, 'nested more than 128 levels'],
    ] as const) {
      const result = await client.callTool({ name: 'forecast', arguments: args });
      expect(result.isError).toBe(true);
      expect(text(result)).toMatch(new RegExp(`^Invalid arguments for City forecast: .*${problem}`));
    }
    for (const args of [{ city: 'Zürich 東京 🌧' }, { city: 'x'.repeat(1_000_000) }]) {
      const result = await client.callTool({ name: 'forecast', arguments: args });
      expect(typeof text(result)).toBe('string');
    }
    const { calls } = await waitFor(() => subject.call('mcpShare.activity', {}), ({ calls }) => calls.length === 4);
    expect(calls.slice(2).map((call) => [call.errorCode, call.args])).toEqual([
      ['invalid_args', '(not shown: they could not be carried)'],
      ['invalid_args', '(not shown: they could not be carried)'],
    ]);
    // Still serving, the same session and a new one.
    expect(JSON.parse(text(await client.callTool({ name: 'forecast', arguments: { city: 'Rome' } })))).toEqual({ city: 'Rome', sky: 'clear' });
    expect((await (await connect(url, token)).listTools()).tools).toHaveLength(2);
  });

  it('makes room for a new session with one that never worked: a flood of initialize requests cannot push out a client at work, and the activity says whose ended', async () => {
    const { subject, url, token } = await sharingCore();
    const working = await connect(url, token, 'Claude Code');
    expect((await working.listTools()).tools).toHaveLength(2);
    const headers = { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', Authorization: `Bearer ${token}` };
    const initialize = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'gone', version: '1' } } });
    const opened: string[] = [];
    for (let index = 0; index < MAX_SESSIONS + 100; index++) {
      const answer = await rawRequest(url, { method: 'POST', headers, body: initialize });
      expect(answer.status).toBe(200);
      opened.push(String(answer.headers['mcp-session-id']));
    }
    const list = JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' });
    const first = await rawRequest(url, { method: 'POST', headers: { ...headers, 'mcp-session-id': opened[0]! }, body: list });
    expect(first.status).toBe(404);
    expect(first.body).toContain('This session has ended');
    // The client at work kept its session all along.
    expect((await working.listTools()).tools).toHaveLength(2);
    const ended = (await subject.call('mcpShare.activity', {})).calls.filter((call) => call.event === 'session-ended');
    expect(ended.length).toBeGreaterThanOrEqual(100);
    expect(ended[0]).toMatchObject({ client: 'gone', result: expect.stringContaining('to make room for a new one') as unknown });
    expect(ended.some((call) => call.client === 'Claude Code')).toBe(false);
  });

  it('never ends a session with a request under way: when every session has one, a new one is refused with 503', async () => {
    const { url, token } = await sharingCore();
    const headers = { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', Authorization: `Bearer ${token}` };
    const initialize = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'busy', version: '1' } } });
    const streams = new AbortController();
    onTestFinished(() => streams.abort());
    // Held to the end: undici cancels the body of a response nobody references once it is collected, which closed a
    // stream (and freed its session) whenever a busy CI machine ran the collector mid-test.
    const open: Response[] = [];
    for (let index = 0; index < MAX_SESSIONS; index++) {
      const answer = await rawRequest(url, { method: 'POST', headers, body: initialize });
      // Each session keeps its event stream open: a request under way.
      const stream = await fetch(url, { headers: { Accept: 'text/event-stream', Authorization: `Bearer ${token}`, 'mcp-session-id': String(answer.headers['mcp-session-id']) }, signal: streams.signal });
      expect(stream.status).toBe(200);
      open.push(stream);
    }
    const refused = await rawRequest(url, { method: 'POST', headers, body: initialize });
    expect(refused.status).toBe(503);
    expect(refused.body).toContain('each with a request under way');
    expect(open.every((stream) => !stream.bodyUsed)).toBe(true);
  });

  it('says so when its port is taken, and keeps the token out of its files in clear', async () => {
    const { subject, token, weather } = await sharingCore();
    const taken = Number(new URL(weather.base).port);
    const status = await subject.call('mcpShare.configure', { port: taken });
    expect(status).toMatchObject({ state: 'failed', failure: { code: 'port_in_use', message: expect.stringContaining(`Port ${taken} is taken`) as unknown } });
    const { readFile } = await import('node:fs/promises');
    const file = await readFile(`${subject.dataDir}/mcp-server.json`, 'utf8');
    expect(file).not.toContain(token);
    expect(JSON.parse(file)).toMatchObject({ enabled: true, port: taken });
  });
});

describe('Toolbelt as an MCP server over stdio (the mcp command)', () => {
  it('serves the shared tools of a folder a running Toolbelt uses, records the calls there, and refuses tools that ask first', async () => {
    const { subject, bundleID, weather } = await sharingCore();
    const client = new Client({ name: 'Claude Desktop', version: '1.0.0' });
    await client.connect(
      new StdioClientTransport({ command: process.execPath, args: [path.join(PROJECT_ROOT, 'out/main/server.js'), 'mcp', '--data-dir', subject.dataDir], stderr: 'pipe' }),
    );
    onTestFinished(() => client.close());
    expect((await client.listTools()).tools.map((tool) => tool.name).sort()).toEqual(['clear-alerts', 'forecast']);
    expect(JSON.parse(text(await client.callTool({ name: 'forecast', arguments: { city: 'Oslo' } })))).toEqual({ city: 'Oslo', sky: 'clear' });
    const refused = await client.callTool({ name: 'clear-alerts', arguments: { city: 'Oslo' } });
    expect(refused.isError).toBe(true);
    expect(text(refused)).toContain('no Toolbelt window is open');
    expect(weather.requestsTo('/alerts')).toHaveLength(0);
    // A bundle the app stops sharing stops being served by the other process too.
    await subject.call('mcpShare.shareBundle', { bundleID, shared: false });
    expect((await client.listTools()).tools).toEqual([]);
    await expect(client.callTool({ name: 'forecast', arguments: { city: 'Oslo' } })).rejects.toThrow(/no shared tool named "forecast"/);
    // A name of 100 kB is said back cut.
    const unknown = await client.callTool({ name: 'n'.repeat(100_000), arguments: {} }).then(
      () => '',
      (error: unknown) => String(error),
    );
    expect(unknown).toMatch(new RegExp(`no shared tool named "n{80}…"`));
    expect(unknown.length).toBeLessThan(400);
    // The app's activity view reads what the other process recorded.
    const { calls } = await waitFor(() => subject.call('mcpShare.activity', {}), ({ calls }) => calls.length === 2);
    expect(calls.map((call) => [call.client, call.tool, call.approval])).toEqual([
      ['Claude Desktop', 'clear-alerts', 'no-window'],
      ['Claude Desktop', 'forecast', 'not-needed'],
    ]);
  });

  it('stops with a line on stderr and a failing exit code when a client sends a message past 10 MB', async () => {
    const { subject } = await sharingCore();
    const child = spawn(process.execPath, [path.join(PROJECT_ROOT, 'out/main/server.js'), 'mcp', '--data-dir', subject.dataDir], { stdio: ['pipe', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
    child.stdin.on('error', () => {});
    child.stdin.write('x'.repeat(11 * 1024 * 1024));
    expect(await exited).toBe(1);
    expect(stderr).toContain('toolbelt mcp: a message from the client is larger than the 10 MB a message may be; stopping.');
  });
});

import { Client, StreamableHTTPClientTransport, type CallToolResult } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import path from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { nextQuestion } from '../../testing/harness/live-questions.js';
import { CORE_BUNDLE } from '../../testing/data/fixtures.js';
import { sharingCore, waitFor } from '../../testing/harness/mcp-share-harness.js';
import { rawRequest } from '../../testing/harness/raw-request.js';
import { PROJECT_ROOT } from '../../testing/cores/spawned-host.js';

/**
 * Toolbelt's MCP server as a client of the 2026-07-28 revision meets it: the
 * official SDK v2 client pinned to that revision (no 2025 fallback), every
 * request on its own, beside the 2025 sessions the other tests hold.
 */
const PINNED = { mode: { pin: '2026-07-28' } } as const;

async function connectModern(url: string, token: string, options: { name?: string; asks?: (message: string) => string } = {}): Promise<Client> {
  const client = new Client(
    { name: options.name ?? 'Modern client', version: '2.4.0' },
    { versionNegotiation: PINNED, ...(options.asks ? { capabilities: { elicitation: { form: {} } } } : {}) },
  );
  const { asks } = options;
  if (asks) client.setRequestHandler('elicitation/create', (request) => ({ action: 'accept', content: { answer: asks(request.params.message) } }));
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { Authorization: `Bearer ${token}` } } }));
  onTestFinished(() => client.close());
  return client;
}

const text = (result: unknown) => ((result as CallToolResult).content[0] as { text: string }).text;

/** A 2026-07-28 request as a client of that revision sends it: the envelope in `_meta`, the method and revision in headers too. */
function modernBody(id: number, method: string, params: Record<string, unknown> = {}) {
  return {
    jsonrpc: '2.0',
    id,
    method,
    params: {
      ...params,
      _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' }, 'io.modelcontextprotocol/clientCapabilities': {} },
    },
  };
}

describe('Toolbelt’s MCP server to a 2026-07-28 client (SDK v2, pinned)', () => {
  it('lists and calls the shared tools statelessly, with caching hints, and names the client in the activity', async () => {
    const { subject, url, token } = await sharingCore();
    const client = await connectModern(url, token, { name: 'Pinned 2026 client' });
    expect(client.getNegotiatedProtocolVersion()).toBe('2026-07-28');
    expect(client.getServerVersion()?.name).toBe('toolbelt');
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual(['clear-alerts', 'forecast']);
    const result = await client.callTool({ name: 'forecast', arguments: { city: 'Oslo' } });
    expect(result.isError).toBeFalsy();
    expect(JSON.parse(text(result))).toEqual({ city: 'Oslo', sky: 'clear' });
    // No session: the activity names the client from the request itself.
    const { calls } = await waitFor(() => subject.call('mcpShare.activity', {}), ({ calls: recorded }) => recorded.length > 0);
    expect(calls[0]).toMatchObject({ client: 'Pinned 2026 client', tool: 'forecast', ok: true });

    // The list says how long it may be kept, and for whom.
    const headers = { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', Authorization: `Bearer ${token}`, 'MCP-Protocol-Version': '2026-07-28' };
    const listed = await rawRequest(url, { method: 'POST', headers: { ...headers, 'Mcp-Method': 'tools/list' }, body: JSON.stringify(modernBody(7, 'tools/list')) });
    expect(listed.status).toBe(200);
    expect(JSON.parse(listed.body)).toMatchObject({ id: 7, result: { ttlMs: 60_000, cacheScope: 'private' } });
  });

  it('asks for approval in the window as for any client, and a tool that asks the person goes through input_required rounds', async () => {
    const { subject, url, token, weather } = await sharingCore();
    await subject.call('mcpShare.shareBundle', { bundleID: CORE_BUNDLE, shared: true });
    const asked: string[] = [];
    const client = await connectModern(url, token, { name: 'Form client 2026', asks: (message) => (asked.push(message), 'Blue') });

    const pending = client.callTool({ name: 'clear-alerts', arguments: { city: 'Paris' } });
    const question = await nextQuestion(subject.core);
    expect(question).toMatchObject({ from: { kind: 'mcp-client', client: 'Form client 2026' }, approval: { displayName: 'Clear alerts' } });
    await subject.call('questions.answer', { id: question.id, answer: { action: 'accept', content: {} } });
    expect((await pending).isError).toBeFalsy();
    expect(weather.seen.filter((request) => request.url.startsWith('/alerts'))).toHaveLength(1);

    const answered = await client.callTool({ name: 'ask-user', arguments: { question: 'Which colour?', choices: ['Red', 'Blue'] } });
    expect(answered.isError).toBeFalsy();
    expect(JSON.parse(text(answered))).toEqual({ answer: 'Blue' });
    expect(asked).toEqual(['Which colour?']);
  });

  it('tells a client listening on subscriptions/listen that the tool list changed', async () => {
    const { subject, url, token, bundleID } = await sharingCore();
    const client = await connectModern(url, token);
    let heard = 0;
    client.setNotificationHandler('notifications/tools/list_changed', () => {
      heard++;
    });
    const subscription = await client.listen({ toolsListChanged: true });
    onTestFinished(() => subscription.close());
    await subject.call('mcpShare.shareBundle', { bundleID, shared: false });
    await waitFor(async () => heard, (count) => count > 0);
    expect((await client.listTools({}, { cacheMode: 'refresh' })).tools).toEqual([]);
  });

  it('refuses mixed-up and forged requests with a code, and goes on serving', async () => {
    const { url, token } = await sharingCore();
    const headers = { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', Authorization: `Bearer ${token}`, 'MCP-Protocol-Version': '2026-07-28' };
    const post = (body: unknown, extra: Record<string, string> = {}) => rawRequest(url, { method: 'POST', headers: { ...headers, ...extra }, body: JSON.stringify(body) });
    const errorOf = (answer: { body: string }) => (JSON.parse(answer.body) as { id: unknown; error: { code: number; message: string } });

    // A 2025 session id on a request that stands alone.
    const withSession = await post(modernBody(3, 'tools/list'), { 'Mcp-Method': 'tools/list', 'Mcp-Session-Id': 'b2f6a1d0-5c1e-4f0a-9d3c-000000000000' });
    expect(withSession.status).toBe(400);
    expect(errorOf(withSession)).toMatchObject({ id: 3, error: { code: -32600 } });
    expect(errorOf(withSession).error.message).toContain('carries no Mcp-Session-Id');
    // The header says one method, the body another.
    const mismatch = await post(modernBody(4, 'tools/call', { name: 'forecast', arguments: { city: 'Rome' } }), { 'Mcp-Method': 'tools/list' });
    expect(mismatch.status).toBe(400);
    expect(errorOf(mismatch).error.code).toBe(-32020);
    // A revision nobody speaks.
    const unknown = modernBody(5, 'tools/list');
    unknown.params._meta['io.modelcontextprotocol/protocolVersion'] = '2099-01-01';
    const future = await post(unknown, { 'Mcp-Method': 'tools/list', 'MCP-Protocol-Version': '2099-01-01' });
    expect(errorOf(future).error.code).toBe(-32022);
    // A round's state the server never gave.
    const forged = await post(modernBody(6, 'tools/call', { name: 'forecast', arguments: { city: 'Rome' }, requestState: 'v1.forged.state', inputResponses: {} }), { 'Mcp-Method': 'tools/call', 'Mcp-Name': 'forecast' });
    expect(errorOf(forged)).toMatchObject({ id: 6, error: { code: -32602, message: 'Invalid or expired requestState' } });
    // Huge _meta: refused by size, not parsed.
    const huge = modernBody(8, 'tools/list');
    Object.assign(huge.params._meta, { padding: 'x'.repeat(5 * 1024 * 1024) });
    expect((await post(huge, { 'Mcp-Method': 'tools/list' })).status).toBe(413);

    const client = await connectModern(url, token);
    expect((await client.callTool({ name: 'forecast', arguments: { city: 'Rome' } })).isError).toBeFalsy();
  });

  it('serves a pinned 2026-07-28 client over stdio (the mcp command)', async () => {
    const { subject } = await sharingCore();
    const client = new Client({ name: 'Stdio 2026 client', version: '2.4.0' }, { versionNegotiation: PINNED });
    const transport = new StdioClientTransport({ command: process.execPath, args: [path.join(PROJECT_ROOT, 'out/main/server.js'), 'mcp', '--data-dir', subject.dataDir], stderr: 'pipe' });
    await client.connect(transport);
    onTestFinished(() => client.close());
    expect(client.getNegotiatedProtocolVersion()).toBe('2026-07-28');
    expect((await client.listTools()).tools.map((tool) => tool.name)).toContain('forecast');
  });
});

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { ToolListChangedNotificationSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { ToolView } from '../../shared/schemas/tool.js';
import { toolInputOf } from '../../shared/tools/tool-input.js';
import { describe, expect, it, onTestFinished } from 'vitest';
import { nextQuestion } from '../../testing/harness/live-questions.js';
import { CORE_BUNDLE } from '../../testing/data/fixtures.js';
import { sharingCore, waitFor } from '../../testing/harness/mcp-share-harness.js';

/**
 * What Toolbelt's MCP server does with a client's calls, over the SDK's
 * in-memory transport pair: the wire is not the subject here (the
 * Streamable HTTP and stdio endpoints have their own tests in
 * mcp-share.test.ts), so nothing waits on sockets.
 */
async function connectInMemory(subject: Awaited<ReturnType<typeof sharingCore>>['subject'], name = 'Test client'): Promise<Client> {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const client = new Client({ name, version: '1.0.0' });
  subject.core.mcpShare.serve(serverSide);
  await client.connect(clientSide);
  onTestFinished(() => client.close());
  return client;
}

const text = (result: unknown) => ((result as CallToolResult).content[0] as { text: string }).text;

/** A shared bundle of `count` local tools, "city-0" … : a catalogue too big for one page or one list. */
async function shareMany(subject: Awaited<ReturnType<typeof sharingCore>>['subject'], count: number) {
  const bundleID = '01a2008d-7400-7000-8000-00000000ca7a';
  await subject.call('bundles.put', { bundleID, slug: 'cities', displayName: 'Cities' });
  for (let index = 0; index < count; index++) {
    await subject.call('tools.put', {
      bundleID,
      toolSlug: `city-${index}`,
      version: 'v1',
      tool: { displayName: `City ${index}`, description: index === 17 ? 'The population of Lagos, today.' : `Facts about city number ${index}.`, type: 'local', argSchema: { type: 'object' }, impl: { func: 'core.currentTime' } },
    });
  }
  await subject.call('mcpShare.shareBundle', { bundleID, shared: true });
}

describe('Toolbelt’s MCP server, as a client’s calls meet it', () => {
  it('asks the person before a tool that asks first, and runs it only when they allow it', async () => {
    const { subject, weather } = await sharingCore();
    const client = await connectInMemory(subject, 'Claude');
    const pending = client.callTool({ name: 'clear-alerts', arguments: { city: 'Paris' } });
    // The window sees the question, as the approval dialog does.
    const questions = [await nextQuestion(subject.core)];
    expect(questions[0]).toMatchObject({ from: { kind: 'mcp-client', client: 'Claude' }, approval: { displayName: 'Clear alerts', args: { city: 'Paris' } } });
    expect(weather.seen.filter((request) => request.url.startsWith('/alerts'))).toHaveLength(0);
    await subject.call('questions.answer', { id: questions[0]!.id, answer: { action: 'accept', content: {} } });
    const allowed = await pending;
    expect(allowed.isError).toBeFalsy();
    expect(weather.seen.filter((request) => request.url.startsWith('/alerts'))).toHaveLength(1);

    const declinedCall = client.callTool({ name: 'clear-alerts', arguments: { city: 'Lyon' } });
    const second = { questions: [await nextQuestion(subject.core)] };
    await subject.call('questions.answer', { id: second.questions[0]!.id, answer: { action: 'decline' } });
    const declined = await declinedCall;
    expect(declined.isError).toBe(true);
    expect(text(declined)).toContain('The user denied this call to Clear alerts');
    expect(weather.seen.filter((request) => request.url.startsWith('/alerts'))).toHaveLength(1);
    const { calls } = await waitFor(() => subject.call('mcpShare.activity', {}), ({ calls }) => calls.length === 2);
    expect(calls.map((call) => call.approval)).toEqual(['declined', 'approved']);
  });

  it('with no window to ask in, refuses a tool that asks first and says what to do', async () => {
    const { subject, weather } = await sharingCore({ windowOpen: () => false });
    const client = await connectInMemory(subject);
    const result = await client.callTool({ name: 'clear-alerts', arguments: { city: 'Paris' } });
    expect(result.isError).toBe(true);
    expect(text(result)).toMatch(/no Toolbelt window is open.*approve it there, or switch off "Ask before every call"/);
    expect(weather.seen).toHaveLength(0);
  });

  it('tells connected clients when the shared tools change, and lists only what is shared and on', async () => {
    const { subject, bundleID } = await sharingCore();
    const client = await connectInMemory(subject);
    let told = 0;
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
      told++;
    });
    await subject.call('tools.patch', { bundleID, toolSlug: 'forecast', version: 'v1', isEnabled: false });
    await waitFor(async () => told, (count) => count >= 1);
    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(['clear-alerts']);
    // The built-in bundle is not shared: its tools are absent until it is.
    expect((await client.listTools()).tools.some((tool) => tool.name === 'calculator')).toBe(false);
    await subject.call('mcpShare.shareBundle', { bundleID: CORE_BUNDLE, shared: true });
    await waitFor(async () => told, (count) => count >= 2);
    expect((await client.listTools()).tools.map((tool) => tool.name)).toContain('calculator');
    await subject.call('mcpShare.shareBundle', { bundleID, shared: false });
    expect((await client.listTools()).tools.map((tool) => tool.name)).not.toContain('clear-alerts');
  });


  it('shares the latest version of a tool by its own name, not two versions told apart by a hash; an older one while the newer is off', async () => {
    const { subject, bundleID } = await sharingCore();
    const v1 = (await subject.call('tools.get', { bundleID, toolSlug: 'forecast', version: 'v1' })) as ToolView;
    await subject.call('tools.put', { bundleID, toolSlug: 'forecast', version: 'v2', tool: { ...toolInputOf(v1), version: 'v2', displayName: 'City forecast, second take' } });
    const client = await connectInMemory(subject);
    const listed = (await client.listTools()).tools;
    expect(listed.map((tool) => tool.name).sort()).toEqual(['clear-alerts', 'forecast']);
    expect(listed.find((tool) => tool.name === 'forecast')!.title).toBe('City forecast, second take');
    await subject.call('tools.patch', { bundleID, toolSlug: 'forecast', version: 'v2', isEnabled: false });
    await waitFor(async () => (await client.listTools()).tools.find((tool) => tool.name === 'forecast')?.title, (title) => title === 'City forecast');
  });

  it('pages tools/list: 152 shared tools in pages of 100, read with the cursor the server gives; a cursor it never gave is refused', async () => {
    const { subject } = await sharingCore();
    await shareMany(subject, 150);
    await subject.call('mcpShare.configure', { discovery: 'all' });
    const client = await connectInMemory(subject);
    const first = await client.listTools();
    expect(first.tools).toHaveLength(100);
    expect(first.nextCursor).toEqual(expect.any(String));
    const second = await client.listTools({ cursor: first.nextCursor! });
    expect(second.tools).toHaveLength(52);
    expect(second.nextCursor).toBeUndefined();
    expect(new Set([...first.tools, ...second.tools].map((tool) => tool.name)).size).toBe(152);
    await expect(client.listTools({ cursor: 'not-ours' })).rejects.toThrow(/cursor is not one this server gave/);
  });

  it('past 30 shared tools, lists tool_search alone; what a search finds joins the session’s list (it is told so) and runs', async () => {
    const { subject } = await sharingCore();
    await shareMany(subject, 40);
    expect(await subject.call('mcpShare.status', {})).toMatchObject({ discovery: 'auto', listing: 'search', toolCount: 42 });
    const client = await connectInMemory(subject);
    let told = 0;
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
      told++;
    });
    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(['tool_search']);
    const nothing = await client.callTool({ name: 'tool_search', arguments: { query: 'zzzqqq' } });
    expect(nothing.isError).toBe(true);
    expect(text(nothing)).toContain('Search again with other words');
    const found = await client.callTool({ name: 'tool_search', arguments: { query: 'population of Lagos', limit: 1 } });
    expect(text(found)).not.toContain('No shared tool');
    expect(found.isError).toBeFalsy();
    expect(JSON.parse(text(found))).toMatchObject({ matches: [{ name: 'city-17', description: 'The population of Lagos, today.', bundle: 'Cities' }] });
    await waitFor(async () => told, (count) => count >= 1);
    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(['tool_search', 'city-17']);
    expect((await client.callTool({ name: 'city-17', arguments: {} })).isError).toBeFalsy();
    // Another session starts from tool_search alone.
    const other = await connectInMemory(subject);
    expect((await other.listTools()).tools.map((tool) => tool.name)).toEqual(['tool_search']);
  });

  it('answers logging/setLevel, and says the shipped local tools only read', async () => {
    const { subject } = await sharingCore();
    await subject.call('mcpShare.shareBundle', { bundleID: CORE_BUNDLE, shared: true });
    const client = await connectInMemory(subject);
    await expect(client.setLoggingLevel('debug')).resolves.toEqual({});
    const calculator = (await client.listTools()).tools.find((tool) => tool.name === 'calculator');
    expect(calculator?.annotations).toMatchObject({ readOnlyHint: true, openWorldHint: false });
  });
});

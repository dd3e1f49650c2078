import { getEventListeners } from 'node:events';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { PROJECT_ROOT } from '../../testing/cores/spawned-host.js';
import type { InvokeResult } from '../../shared/schemas/invocation.js';
import { expectError, expectOk } from '../../testing/harness/invoke-harness.js';
import { startChatHarness } from '../../testing/harness/chat-harness.js';
import { startTestCore } from '../../testing/harness/test-core.js';
import { tempDirForTest } from '../../testing/harness/test-temp-dir.js';
import { toolResultText } from '../providers/transcript.js';
import { mcpBundleID } from './identity.js';

// The reference server from npm, run as people run it: a command over stdio.
const EVERYTHING = { command: process.execPath, args: [path.join(PROJECT_ROOT, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js'), 'stdio'] };

describe('MCP servers over stdio (server-everything)', () => {
  it('a configured server is a bundle whose tools are listed, searched, run, switched and refuse edits', async () => {
    const { call, failure, dataDir } = await startTestCore();
    const server = await call('mcpServers.put', { name: 'everything', config: EVERYTHING });
    expect(server).toMatchObject({ name: 'everything', state: 'connected', bundleID: mcpBundleID('everything'), serverInfo: { name: 'mcp-servers/everything' } });
    expect(server.toolCount).toBeGreaterThan(5);
    // Every tool is offered, the one that runs only as an MCP task too (mcp-tasks.test.ts runs it).
    expect(server.leftOut).toBeUndefined();

    const bundleID = server.bundleID;
    const [bundle] = (await call('bundles.list', { bundleIDs: [bundleID] })).bundles;
    expect(bundle).toMatchObject({ displayName: 'everything', readOnly: true, toolCount: server.toolCount });
    const tools = (await call('tools.list', { bundleIDs: [bundleID] })).tools;
    const echo = tools.find((tool) => tool.slug === 'echo');
    expect(echo).toMatchObject({ type: 'mcp', version: 'mcp', readOnly: true, available: true, impl: { server: 'everything', tool: 'echo' } });
    expect((await call('tools.search', { q: 'echo' })).tools[0]).toMatchObject({ slug: 'echo', bundleID });

    const address = { bundleID, toolSlug: 'echo', version: 'mcp' };
    expect(expectOk(await call('tools.invoke', { ...address, args: { message: 'hello' } })).value).toBe('Echo: hello');
    const sum = expectOk(await call('tools.invoke', { bundleID, toolSlug: 'get-sum', version: 'mcp', args: { a: 2, b: 40 } }));
    expect(JSON.stringify(sum.value)).toContain('42');
    // Arguments are checked against the tool's own inputSchema before the server sees them.
    expect((await failure('tools.invoke', { ...address, args: { message: 5 } })).code).toBe('invalid_args');

    await call('tools.patch', { ...address, isEnabled: false });
    expect((await failure('tools.invoke', { ...address, args: { message: 'x' } })).code).toBe('tool_disabled');
    await call('bundles.patch', { bundleID, isEnabled: false });
    expect((await call('tools.list', { bundleIDs: [bundleID] })).tools).toEqual([]);
    await call('bundles.patch', { bundleID, isEnabled: true });
    await call('tools.patch', { ...address, isEnabled: true });

    expect((await failure('tools.delete', address)).code).toBe('source_readonly');
    expect((await failure('bundles.delete', { bundleID })).code).toBe('source_readonly');

    // The configuration is a file in the shape people paste, and it survives a restart.
    const reopened = await (await startTestCore({ dataDir })).call('mcpServers.list', {});
    expect(reopened.servers.map((entry) => entry.name)).toEqual(['everything']);

    await call('mcpServers.delete', { name: 'everything' });
    expect((await call('bundles.list', { bundleIDs: [bundleID], includeDisabled: true })).bundles).toEqual([]);
    expect((await call('mcpServers.list', {})).servers).toEqual([]);
  });

  it('a missing command, a server that exits at once, and a missing secret each fail with the reason', async () => {
    const { call } = await startTestCore();
    const missing = await call('mcpServers.put', { name: 'ghost', config: { command: 'toolbelt-no-such-command-42' } });
    expect(missing).toMatchObject({ state: 'failed', error: { code: 'mcp_command_missing', message: expect.stringContaining('"toolbelt-no-such-command-42" was not found') as unknown } });

    const script = path.join(await tempDirForTest(), 'crash.mjs');
    await writeFile(script, "process.stderr.write('config file is broken\\n'); process.exit(3);\n");
    const crashed = await call('mcpServers.put', { name: 'crash', config: { command: process.execPath, args: [script] } });
    expect(crashed.state).toBe('failed');
    expect(crashed.stderr).toContain('config file is broken');
    expect(crashed.error?.message).toContain('config file is broken');

    const secretless = await call('mcpServers.put', { name: 'needs-key', config: { ...EVERYTHING, env: { API_KEY: '${secret.EVERYTHING_KEY}' } } });
    expect(secretless).toMatchObject({ state: 'failed', error: { code: 'mcp_missing_secret', message: expect.stringContaining('EVERYTHING_KEY') as unknown } });
    // Tools of a failed server are listed as unavailable, with why.
    expect((await call('bundles.list', { bundleIDs: [crashed.bundleID] })).bundles[0]).toMatchObject({ toolCount: 0 });
  });
});

describe('MCP tools in a chat', () => {
  it('are selected and called by a model like any other tool (the person trusts the server’s hints: echo says it only reads)', async () => {
    const h = await startChatHarness();
    const server = await h.call('mcpServers.put', { name: 'everything', config: { ...EVERYTHING, askFirst: 'as-annotated' } });
    await h.provider('script', { kind: 'scripted', displayName: 'Script', script: [{ toolCalls: [{ name: 'echo', args: { message: 'from the model' } }] }, { text: 'Done.' }] });
    const chat = await h.chat({ providerId: 'script', tools: { mode: 'auto', selected: [{ bundleID: server.bundleID, slug: 'echo', version: 'mcp' }] } });
    await h.call('chats.send', { chatId: chat.id, content: 'echo something' });
    const done = await h.settled(chat.id);
    const call = done.messages.flatMap((message) => (message.role === 'assistant' ? message.toolCalls : []))[0];
    expect(call).toMatchObject({ name: 'echo', status: 'succeeded', result: { ok: true, value: 'Echo: from the model' }, tool: { bundleName: 'everything' } });
  });
});

describe('MCP tools in a chat, with progress and pictures', () => {
  it('a running call shows the server’s progress, and an image is kept for the card but reaches the model as a name, not as base64', async () => {
    const h = await startChatHarness();
    // The person trusts this server outright: its calls run without a yes.
    const server = await h.call('mcpServers.put', { name: 'everything', config: { ...EVERYTHING, askFirst: 'never' } });
    const tool = (slug: string) => ({ bundleID: server.bundleID, slug, version: 'mcp' });
    await h.provider('script', {
      kind: 'scripted',
      displayName: 'Script',
      script: [{ toolCalls: [{ name: 'trigger-long-running-operation', args: { duration: 1, steps: 4 } }, { name: 'get-tiny-image', args: {} }] }, { text: 'Done.' }],
    });
    const chat = await h.chat({ providerId: 'script', tools: { mode: 'auto', selected: [tool('trigger-long-running-operation'), tool('get-tiny-image')] } });
    await h.call('chats.send', { chatId: chat.id, content: 'work slowly, then show me a picture' });
    const done = await h.settled(chat.id);

    const progress = h.events.flatMap(({ event }) => (event.type === 'tool-call' && event.call.progress ? [event.call.progress] : []));
    expect(progress.length).toBeGreaterThan(0);
    expect(progress.at(-1)).toMatchObject({ total: 4 });
    const calls = done.messages.flatMap((message) => (message.role === 'assistant' ? message.toolCalls : []));
    // Settled calls keep their result, not the last progress.
    expect(calls.every((call) => call.status === 'succeeded' && call.progress === undefined)).toBe(true);

    // What the model reads of the picture: its name and size, not kilobytes of base64.
    const image = calls.find((call) => call.name === 'get-tiny-image')!;
    const { text } = toolResultText(image);
    expect(text).toMatch(/\[image image\/png, [\d.]+ (KB|bytes), shown to the user\]/);
    expect(text).not.toContain('iVBORw0KGgo');
    expect(JSON.stringify(image.result)).toContain('iVBORw0KGgo');
  });
});

describe('MCP tool calls', () => {
  async function everything() {
    const subject = await startTestCore();
    const server = await subject.call('mcpServers.put', { name: 'everything', config: EVERYTHING });
    const invoke = (toolSlug: string, args: Record<string, unknown>, extra: { timeoutMs?: number; signal?: AbortSignal } = {}) =>
      subject.core.dispatcher.call(
        'tools.invoke',
        { bundleID: server.bundleID, toolSlug, version: 'mcp', args, ...(extra.timeoutMs ? { timeoutMs: extra.timeoutMs } : {}) },
        { transport: 'internal', ...(extra.signal ? { signal: extra.signal } : {}) },
      ) as Promise<InvokeResult>;
    return { ...subject, server, invoke };
  }

  it('time out per call, but progress from a working server restarts the clock', async () => {
    const { invoke } = await everything();
    const stuck = expectError(await invoke('trigger-long-running-operation', { duration: 3, steps: 1 }, { timeoutMs: 400 }), 'timeout');
    expect(stuck.message).toContain('timed out after 400 ms');
    // Eight progress notifications, 250 ms apart: each restarts a 700 ms timeout.
    expect(expectOk(await invoke('trigger-long-running-operation', { duration: 2, steps: 8 }, { timeoutMs: 700 })).value).toContain('Long running operation completed');
  });

  it('traced (the tester), come back with their JSON-RPC messages: the call, progress, and the result — not other calls’', async () => {
    const subject = await everything();
    const traced = subject.core.dispatcher.call(
      'tools.invoke',
      { bundleID: subject.server.bundleID, toolSlug: 'trigger-long-running-operation', version: 'mcp', args: { duration: 0.4, steps: 2 }, trace: true },
      { transport: 'internal' },
    ) as Promise<InvokeResult>;
    // Calls on the same server meanwhile (a chat, say) are not part of this call's trace.
    for (const word of ['one', 'two', 'three']) expectOk(await subject.invoke('echo', { message: word }));
    const result = await traced;
    expectOk(result);
    const messages = (result.rpc ?? []).map((message) => ({ direction: message.direction, ...(JSON.parse(message.text) as { id?: number; method?: string; result?: unknown }) }));
    expect(messages[0]).toMatchObject({ direction: 'sent', method: 'tools/call', params: { name: 'trigger-long-running-operation' } });
    expect(messages.filter((message) => message.method === 'notifications/progress').length).toBeGreaterThanOrEqual(1);
    expect(messages.at(-1)).toMatchObject({ direction: 'received', id: messages[0]!.id, result: expect.anything() as unknown });
    expect(result.rpc!.some((message) => message.text.includes('echo'))).toBe(false);
    // Untraced calls carry none.
    expect(expectOk(await subject.invoke('echo', { message: 'x' })).rpc).toBeUndefined();
  });

  it('with annotated content: the card gets every block, the model only those meant for it', async () => {
    const { invoke } = await everything();
    const asRead = (value: unknown) => toolResultText({ id: 'c', name: 'get-annotated-message', args: {}, status: 'succeeded', result: { ok: true, value, durationMs: 0, attempts: 1 } }).text;
    const success = expectOk(await invoke('get-annotated-message', { messageType: 'success', includeImage: true })).value as { type: string }[];
    expect(success.map((block) => block.type)).toEqual(['text', 'image']);
    // Both blocks say audience ["user"]: the model is told the answer went to the person.
    expect(asRead(success)).toBe("[The tool's answer was for the user only, and was shown to them.]");
    const debug = expectOk(await invoke('get-annotated-message', { messageType: 'debug', includeImage: true })).value;
    expect(asRead(debug)).toBe('Debug: Cache hit ratio 0.95, latency 150ms');
    const error = expectOk(await invoke('get-annotated-message', { messageType: 'error', includeImage: false })).value;
    expect(asRead(error)).toBe('Error: Operation failed');
    // A lone text for the user only stays a block, so its audience is kept.
    expect(asRead(expectOk(await invoke('get-annotated-message', { messageType: 'success', includeImage: false })).value)).toMatch(/for the user only/);
  });

  it('leave no listener behind on a signal that outlives them (a chat run’s)', async () => {
    const { invoke } = await everything();
    const run = new AbortController();
    for (let call = 0; call < 20; call++) expectOk(await invoke('echo', { message: `call ${call}` }, { signal: run.signal }));
    expect(getEventListeners(run.signal, 'abort')).toHaveLength(0);
  });

  it('stop when cancelled', async () => {
    const { invoke } = await everything();
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 300);
    const started = performance.now();
    expectError(await invoke('trigger-long-running-operation', { duration: 5, steps: 5 }, { signal: controller.signal }), 'cancelled');
    expect(performance.now() - started).toBeLessThan(3_000);
  });

  it('give structured content (checked against the outputSchema), and rich content as its blocks', async () => {
    const { invoke } = await everything();
    expect(expectOk(await invoke('get-structured-content', { location: 'New York' })).value).toMatchObject({ temperature: expect.any(Number) as unknown, conditions: expect.any(String) as unknown });
    const image = expectOk(await invoke('get-tiny-image', {})).value as { type: string; mimeType?: string }[];
    expect(image.map((block) => block.type)).toContain('image');
    expect(image.find((block) => block.type === 'image')?.mimeType).toBe('image/png');
  });
});

describe('importing an mcpServers document', () => {
  it('adds every server as pasted from Claude Desktop, keeps the file in that shape, and reports each one', async () => {
    const { call, dataDir } = await startTestCore();
    const pasted = { mcpServers: { everything: EVERYTHING, broken: { command: 'toolbelt-no-such-command-42', args: ['--flag'] } } };
    const { servers } = await call('mcpServers.import', pasted);
    expect(servers.map((server) => [server.name, server.state])).toEqual([['everything', 'connected'], ['broken', 'failed']]);
    expect(JSON.parse(await readFile(path.join(dataDir, 'mcp.json'), 'utf8'))).toEqual(pasted);
  });
});

describe('a server that crashes', () => {
  it('is reported with its last words and restarted with backoff, and works again', async () => {
    const { call } = await startTestCore();
    const marker = path.join(await tempDirForTest(), 'crashed');
    const server = await call('mcpServers.put', {
      name: 'flaky',
      config: { command: process.execPath, args: [path.join(PROJECT_ROOT, 'testing/servers/crash-once-mcp-server.mjs')], env: { CRASH_MARKER: marker } },
    });
    expect(server.state).toBe('connected');
    const until = (predicate: (view: Awaited<typeof server>) => boolean) =>
      vi.waitFor(
        async () => {
          const [view] = (await call('mcpServers.list', {})).servers;
          if (!view || !predicate(view)) throw new Error('the server has not reached the expected state');
          return view;
        },
        { timeout: 10_000, interval: 50 },
      );
    const crashed = await until((view) => view.state === 'failed');
    expect(crashed.error?.message).toMatch(/stopped; its last words: segmentation fault \(simulated\)\. Restarting in 1 s \(attempt 1 of 5\)\./);
    await until((view) => view.state === 'connected');
    expect(expectOk(await call('tools.invoke', { bundleID: server.bundleID, toolSlug: 'ping', version: 'mcp', args: {} })).value).toBe('pong');
  });
});

describe('starting on first use', () => {
  it('after a restart a known server waits, its tools listed from the last start, and starts when a tool is called', async () => {
    const first = await startTestCore();
    const server = await first.call('mcpServers.put', { name: 'everything', config: EVERYTHING });
    await first.call('mcpServers.put', { name: 'eager', config: { ...EVERYTHING, eager: true } });
    const toolCount = server.toolCount;

    const second = await first.reopen();
    const views = async () => Object.fromEntries((await second.call('mcpServers.list', {})).servers.map((view) => [view.name, view]));
    // One marked eager starts with Toolbelt; the other waits.
    await vi.waitFor(async () => expect((await views()).eager!.state).toBe('connected'), { timeout: 10_000, interval: 50 });
    const idle = (await views()).everything!;
    expect(idle).toMatchObject({ state: 'idle', toolCount });
    expect(idle.serverInfo).toBeUndefined();
    // Listed, searched and offered while it does not run.
    expect((await second.call('tools.list', { bundleIDs: [server.bundleID] })).tools.find((tool) => tool.slug === 'echo')).toMatchObject({ available: true });
    expect((await second.call('tools.search', { q: 'echo' })).tools.some((tool) => tool.bundleID === server.bundleID)).toBe(true);

    expect(expectOk(await second.call('tools.invoke', { bundleID: server.bundleID, toolSlug: 'echo', version: 'mcp', args: { message: 'wake up' } })).value).toBe('Echo: wake up');
    expect((await views()).everything).toMatchObject({ state: 'connected', serverInfo: { name: 'mcp-servers/everything' } });
  });

  it('a tool list kept in a broken file is no list: the server starts to be asked', async () => {
    const first = await startTestCore();
    const server = await first.call('mcpServers.put', { name: 'everything', config: EVERYTHING });
    const second = await first.reopen(async () => {
      await writeFile(path.join(first.dataDir, 'cache', 'mcp-tools', `${server.bundleID}.json`), '{"tools": [{"name": 5}]');
    });
    await second.core.dispatcher.call('mcpServers.prompts', { name: 'everything' }, { transport: 'internal' });
    const [view] = (await second.call('mcpServers.list', {})).servers;
    expect(view).toMatchObject({ state: 'connected', toolCount: server.toolCount });
  });
});

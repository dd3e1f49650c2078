import path from 'node:path';
import { describe, expect, it, onTestFinished, vi } from 'vitest';
import { startChatHarness } from '../../testing/harness/chat-harness.js';
import { openAiTextReply, startFakeOpenAi } from '../../testing/servers/fake-openai.js';
import { PROJECT_ROOT } from '../../testing/cores/spawned-host.js';
import { startTestCore } from '../../testing/harness/test-core.js';

const EVERYTHING = { command: process.execPath, args: [path.join(PROJECT_ROOT, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js'), 'stdio'] };

describe('what an MCP server says beside its tools', () => {
  it('gives the model the server’s instructions after the chat’s own system prompt, the same while tool search loads more', async () => {
    const h = await startChatHarness();
    const openai = await startFakeOpenAi([openAiTextReply(['First.']), openAiTextReply(['Second.'])]);
    onTestFinished(() => openai.close());
    await h.provider('fake-openai', { kind: 'openai', displayName: 'Fake OpenAI', baseURL: `${openai.url}/v1`, apiKey: 'sk-test' });
    const server = await h.call('mcpServers.put', { name: 'everything', config: EVERYTHING });
    expect(server.state).toBe('connected');
    const chat = await h.chat({ providerId: 'fake-openai', system: 'Answer briefly.', tools: { mode: 'auto', selected: [], bundles: [{ bundleID: server.bundleID }], discovery: 'search' } });

    await h.call('chats.send', { chatId: chat.id, content: 'Hello' });
    await h.settled(chat.id);
    await h.call('chats.send', { chatId: chat.id, content: 'Again' });
    await h.settled(chat.id);

    const systems = openai.requests.map((request) => (request.body.messages as { role: string; content: string }[]).find((message) => message.role === 'system')?.content);
    expect(systems[0]).toMatch(/^Answer briefly\.\n\n/);
    expect(systems[0]).toContain(`<instructions from="the MCP server 'everything'">`);
    expect(systems[0]).toContain('Everything Server');
    expect(systems[0]!.length).toBeLessThan(6_000);
    expect(systems[1]).toBe(systems[0]);
  });

  it('keeps what the server logs for its panel, bounded', async () => {
    const h = await startChatHarness();
    const server = await h.call('mcpServers.put', { name: 'everything', config: EVERYTHING });
    const toggled = await h.call('tools.invoke', { bundleID: server.bundleID, toolSlug: 'toggle-simulated-logging', version: 'mcp', args: {} });
    expect(toggled.ok).toBe(true);
    // The server logs once at once, then every 5 s.
    const logged = await vi.waitFor(
      async () => {
        const view = (await h.call('mcpServers.list', {})).servers.find((entry) => entry.name === 'everything')!;
        if (!view.log?.length) throw new Error('nothing logged yet');
        return view.log;
      },
      { timeout: 10_000, interval: 20 },
    );
    expect(logged[0]).toMatchObject({ level: expect.stringMatching(/^(debug|info|notice|warning|error|critical|alert|emergency)$/) as unknown, text: expect.stringMatching(/message/i) as unknown });
  });
});

describe('a server whose prompts and resources change', () => {
  it('tells the window to read them again (list_changed), and the lists read then have the new ones', async () => {
    const { call, core } = await startTestCore();
    const seen: string[] = [];
    core.events.subscribe((event) => {
      if (event.type === 'mcpServers.offeringsChanged') seen.push(event.server);
    });
    const server = await call('mcpServers.put', { name: 'growing', config: { command: process.execPath, args: [path.join(PROJECT_ROOT, 'testing/servers/growing-mcp-server.mjs')] } });
    expect((await call('mcpServers.prompts', { name: 'growing' })).prompts.map((prompt) => prompt.name)).toEqual(['greeting']);
    expect((await call('tools.invoke', { bundleID: server.bundleID, toolSlug: 'grow', version: 'mcp', args: {} })).ok).toBe(true);
    await vi.waitFor(() => expect(seen).toContain('growing'), { timeout: 5_000, interval: 10 });
    expect((await call('mcpServers.prompts', { name: 'growing' })).prompts.map((prompt) => prompt.name)).toEqual(['greeting', 'farewell-1']);
    expect((await call('mcpServers.resources', { name: 'growing' })).resources.map((resource) => resource.uri)).toEqual(['memo://first', 'memo://more-1']);
  });
});

import { afterEach, describe, expect, it } from 'vitest';
import type { AssistantMessage, Chat } from '../../shared/schemas/chat.js';
import { anthropicReply, startFakeAnthropic } from '../../testing/servers/fake-anthropic.js';
import { geminiReply, startFakeGemini } from '../../testing/servers/fake-gemini.js';
import type { FakeModelServer, FakeReply } from '../../testing/servers/fake-model-server.js';
import { openAiTextReply, openAiToolCallReply, startFakeOpenAi } from '../../testing/servers/fake-openai.js';
import { startChatHarness, type ChatHarness } from '../../testing/harness/chat-harness.js';

/**
 * A chat that reaches a whole bundle and finds its tools by search: the
 * model is offered tool_search alone, searches, and calls what it found on
 * its next turn; what it loaded stays offered, after the tools already
 * offered, also after a restart. Through each provider's SDK and wire format.
 */

const servers: FakeModelServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

interface Wire {
  name: string;
  start: (replies: FakeReply[]) => Promise<FakeModelServer>;
  provider: (url: string) => Parameters<ChatHarness['provider']>[1];
  call: (id: string, name: string, args: Record<string, unknown>) => FakeReply;
  text: (text: string) => FakeReply;
  /** The tool names a request offered, in order. */
  offered: (body: unknown) => string[];
}

const WIRES: Wire[] = [
  {
    name: 'OpenAI',
    start: (replies) => startFakeOpenAi(replies),
    provider: (url) => ({ kind: 'openai', displayName: 'Fake OpenAI', baseURL: `${url}/v1`, apiKey: 'sk-test' }),
    call: (id, name, args) => openAiToolCallReply([{ id, name, args: [JSON.stringify(args)] }]),
    text: (text) => openAiTextReply([text]),
    offered: (body) => ((body as { tools?: { function: { name: string } }[] }).tools ?? []).map((tool) => tool.function.name),
  },
  {
    name: 'Anthropic',
    start: (replies) => startFakeAnthropic(replies),
    provider: (url) => ({ kind: 'anthropic', displayName: 'Fake Anthropic', baseURL: url, apiKey: 'sk-ant' }),
    call: (id, name, args) => anthropicReply({ calls: [{ id, name, json: [JSON.stringify(args)] }] }),
    text: (text) => anthropicReply({ text: [text] }),
    offered: (body) => ((body as { tools?: { name: string }[] }).tools ?? []).map((tool) => tool.name),
  },
  {
    name: 'Gemini',
    start: (replies) => startFakeGemini(replies),
    provider: (url) => ({ kind: 'gemini', displayName: 'Fake Gemini', baseURL: url, apiKey: 'AIza-x' }),
    call: (_id, name, args) => geminiReply({ calls: [{ name, args }] }),
    text: (text) => geminiReply({ text: [text] }),
    offered: (body) => ((body as { tools?: { functionDeclarations?: { name: string }[] }[] }).tools ?? []).flatMap((tool) => tool.functionDeclarations ?? []).map((tool) => tool.name),
  },
];

const assistants = (chat: Chat) => chat.messages.filter((message): message is AssistantMessage => message.role === 'assistant');

describe.each(WIRES)('tool search over $name', (wire) => {
  it('offers tool_search alone, loads what it finds for the next turn, and keeps it loaded after a restart', async () => {
    const h = await startChatHarness();
    const model = await wire.start([
      wire.call('s1', 'tool_search', { query: 'weather in a city', limit: 1 }),
      wire.call('w1', 'weather', { city: 'Oslo' }),
      wire.text('Oslo is 21 degrees.'),
      wire.text('Still here.'),
    ]);
    servers.push(model);
    await h.provider('fake', wire.provider(model.url));
    const chat = await h.chat({ providerId: 'fake', tools: { mode: 'auto', selected: [], bundles: [{ bundleID: h.bundleID }], discovery: 'search' } });

    await h.call('chats.send', { chatId: chat.id, content: 'Weather in Oslo?' });
    const done = await h.settled(chat.id);
    expect(done.status).toBe('idle');
    const [search, call] = assistants(done).flatMap((message) => message.toolCalls);
    expect(search).toMatchObject({ name: 'tool_search', status: 'succeeded', result: { ok: true, value: { matches: [{ name: 'weather', description: 'Weather for a city', bundle: 'Test tools' }] } } });
    expect(call).toMatchObject({ name: 'weather', status: 'succeeded', result: { ok: true, value: { city: 'Oslo', temp: 21 } } });
    expect(done.loadedTools).toEqual([{ bundleID: h.bundleID, slug: 'weather', version: 'v1' }]);
    const offered = model.requests.map((request) => wire.offered(request.body));
    // Appended after what was offered, never reordered: the provider's prompt cache stays valid.
    expect(offered).toEqual([['tool_search'], ['tool_search', 'weather'], ['tool_search', 'weather']]);

    await h.restart();
    await h.call('chats.send', { chatId: chat.id, content: 'And now?' });
    await h.settled(chat.id);
    expect(wire.offered(model.requests[3]!.body)).toEqual(['tool_search', 'weather']);
  });
});

describe('tool search, as a model misuses it', () => {
  async function searchingChat(h: ChatHarness, replies: FakeReply[]) {
    const model = await startFakeOpenAi(replies);
    servers.push(model);
    await h.provider('fake', { kind: 'openai', displayName: 'Fake', baseURL: `${model.url}/v1`, apiKey: 'sk-test' });
    const chat = await h.chat({ providerId: 'fake', tools: { mode: 'auto', selected: [h.tool('météo', { pinned: true })], bundles: [{ bundleID: h.bundleID }], discovery: 'search' } });
    await h.call('chats.send', { chatId: chat.id, content: 'Go' });
    return { model, chat: await h.settled(chat.id) };
  }
  const searchReply = (id: string, args: Record<string, unknown>) => openAiToolCallReply([{ id, name: 'tool_search', args: [JSON.stringify(args)] }]);
  const results = (chat: Chat) => assistants(chat).flatMap((message) => message.toolCalls).map((call) => call.result);

  it('refuses a call to a tool it never loaded, naming tool_search; keeps pinned tools offered', async () => {
    const h = await startChatHarness();
    const { model, chat } = await searchingChat(h, [openAiToolCallReply([{ id: 'c1', name: 'broken', args: ['{"city":"Oslo"}'] }]), openAiTextReply(['Sorry.'])]);
    expect(results(chat)[0]).toMatchObject({ ok: false, error: { code: 'tool_not_loaded', message: expect.stringContaining('Call tool_search') as unknown } });
    expect(h.server.requestsTo('/broken')).toHaveLength(0);
    const offered = (model.requests[0]!.body as { tools: { function: { name: string } }[] }).tools.map((tool) => tool.function.name);
    expect(offered).toHaveLength(2);
    expect(offered[1]).toBe('tool_search');
    expect(offered[0]).toMatch(/^meteo_/);
  });

  it('answers an empty query, control characters, regex syntax, a huge query and odd limits with sentences or matches, never a crash', async () => {
    const h = await startChatHarness();
    const { chat } = await searchingChat(h, [
      searchReply('a', { query: '' }),
      searchReply('b', { query: '\u0000\u0007(?:)+$[]{}\\' }),
      searchReply('c', { query: `${'weather '.repeat(1_300)}`, limit: 0 }),
      searchReply('d', { query: 'city', limit: 10_000 }),
      searchReply('e', { query: 'zzzqqq xylophone' }),
      openAiTextReply(['Done.']),
    ]);
    const [empty, hostile, huge, many, nothing] = results(chat);
    expect(empty).toMatchObject({ ok: false, error: { message: expect.stringContaining('Say in a few words what the tool should do') as unknown } });
    expect(hostile).toMatchObject({ ok: false, error: { message: expect.stringContaining('Search again with other words') as unknown } });
    expect(huge).toMatchObject({ ok: true, value: { matches: [{ name: 'weather' }] } });
    expect(many).toMatchObject({ ok: true });
    expect((many as { value: { matches: unknown[] } }).value.matches).toHaveLength(3);
    expect(nothing).toMatchObject({ ok: false, error: { message: expect.stringContaining('No tool of this chat matches "zzzqqq xylophone"') as unknown } });
  });

  it('stops offering a loaded tool once its bundle is switched off, and offers it again when it is back', async () => {
    const h = await startChatHarness();
    const { model, chat } = await searchingChat(h, [searchReply('s', { query: 'weather', limit: 1 }), openAiTextReply(['Found it.']), openAiTextReply(['Off.']), openAiTextReply(['On.'])]);
    expect(chat.loadedTools).toEqual([{ bundleID: h.bundleID, slug: 'weather', version: 'v1' }]);
    const names = (index: number) => (model.requests[index]!.body as { tools?: { function: { name: string } }[] }).tools?.map((tool) => tool.function.name).filter((name) => !name.startsWith('meteo_'));
    expect(names(1)).toEqual(['tool_search', 'weather']);
    await h.call('bundles.patch', { bundleID: h.bundleID, isEnabled: false });
    await h.call('chats.send', { chatId: chat.id, content: 'Again' });
    await h.settled(chat.id);
    expect(names(2)).toEqual(['tool_search']);
    await h.call('bundles.patch', { bundleID: h.bundleID, isEnabled: true });
    await h.call('chats.send', { chatId: chat.id, content: 'Once more' });
    await h.settled(chat.id);
    expect(names(3)).toEqual(['tool_search', 'weather']);
  });

  it('gives two bundles’ tools of the same name distinct names that say the bundle', async () => {
    const h = await startChatHarness();
    const other = '01a2008d-7400-7000-8000-0000000000b2';
    await h.call('bundles.put', { bundleID: other, slug: 'mirror', displayName: 'Mirror' });
    await h.call('tools.put', { bundleID: other, toolSlug: 'weather', version: 'v1', tool: { displayName: 'Weather too', type: 'local', argSchema: { type: 'object' }, impl: { func: 'core.currentTime' } } });
    const model = await startFakeOpenAi([openAiTextReply(['Hi.'])]);
    servers.push(model);
    await h.provider('fake', { kind: 'openai', displayName: 'Fake', baseURL: `${model.url}/v1`, apiKey: 'sk-test' });
    const chat = await h.chat({ providerId: 'fake', tools: { mode: 'auto', selected: [], bundles: [{ bundleID: h.bundleID }, { bundleID: other }], discovery: 'all' } });
    await h.call('chats.send', { chatId: chat.id, content: 'Hi' });
    await h.settled(chat.id);
    const offered = (model.requests[0]!.body as { tools: { function: { name: string } }[] }).tools.map((tool) => tool.function.name);
    expect(offered).toEqual(expect.arrayContaining(['test_weather', 'mirror_weather', 'broken', 'slow']));
    expect(offered).not.toContain('weather');
  });
});

describe('tool search on Anthropic’s own search (claude-sonnet-4-5 and later)', () => {
  it('sends every tool deferred with the tool search tool, calls what the server loaded, and sends the search blocks back as they came', async () => {
    const h = await startChatHarness();
    const model = await startFakeAnthropic([
      anthropicReply({ text: ['Looking.'], search: { id: 'srvtoolu_1', query: 'weather city', found: ['weather'] }, calls: [{ id: 'toolu_1', name: 'weather', json: ['{"city":"Oslo"}'] }] }),
      anthropicReply({ text: ['Oslo is 21 degrees.'] }),
    ]);
    servers.push(model);
    await h.provider('claude', { kind: 'anthropic', displayName: 'Claude', baseURL: model.url, apiKey: 'sk-ant' });
    const chat = await h.chat({ providerId: 'claude', model: 'claude-sonnet-4-5-20250929', tools: { mode: 'auto', selected: [h.tool('météo', { pinned: true })], bundles: [{ bundleID: h.bundleID }], discovery: 'search' } });
    await h.call('chats.send', { chatId: chat.id, content: 'Weather in Oslo?' });
    const done = await h.settled(chat.id);
    expect(assistants(done).at(-1)!.content).toBe('Oslo is 21 degrees.');
    expect(assistants(done)[0]!.toolCalls[0]).toMatchObject({ name: 'weather', status: 'succeeded', result: { ok: true, value: { city: 'Oslo', temp: 21 } } });

    type Sent = { tools: { name: string; type?: string; defer_loading?: boolean }[]; messages: { role: string; content: { type: string }[] | string }[] };
    const [first, second] = model.requests.map((request) => request.body as Sent);
    // One list that never changes: the pinned tool as it is, every other deferred, and the server's search tool.
    expect(first!.tools.map((tool) => [tool.name, tool.defer_loading ?? false])).toEqual([
      [expect.stringMatching(/^meteo_/) as unknown, false],
      ['broken', true],
      ['slow', true],
      ['weather', true],
      ['tool_search_tool_bm25', false],
    ]);
    expect(second!.tools).toEqual(first!.tools);
    // No tool_search of Toolbelt's own on this path, and nothing loaded into the chat by it.
    expect(first!.tools.some((tool) => tool.name === 'tool_search')).toBe(false);
    expect(done.loadedTools).toBeUndefined();
    const replayed = second!.messages[1]!.content as { type: string; input?: unknown; content?: unknown }[];
    expect(replayed.map((block) => block.type)).toEqual(['text', 'server_tool_use', 'tool_search_tool_result', 'tool_use']);
    expect(replayed[1]).toMatchObject({ input: { query: 'weather city' } });
    expect(replayed[1]).not.toHaveProperty('caller');
    expect(replayed[2]).toMatchObject({ content: { tool_references: [{ type: 'tool_reference', tool_name: 'weather' }] } });
  });

  it('keeps Toolbelt’s own tool_search for Anthropic models without it', async () => {
    const h = await startChatHarness();
    const model = await startFakeAnthropic([anthropicReply({ text: ['Hi.'] })]);
    servers.push(model);
    await h.provider('claude', { kind: 'anthropic', displayName: 'Claude', baseURL: model.url, apiKey: 'sk-ant' });
    const chat = await h.chat({ providerId: 'claude', model: 'claude-3-5-haiku-latest', tools: { mode: 'auto', selected: [], bundles: [{ bundleID: h.bundleID }], discovery: 'search' } });
    await h.call('chats.send', { chatId: chat.id, content: 'Hi' });
    await h.settled(chat.id);
    expect((model.requests[0]!.body as { tools: { name: string }[] }).tools.map((tool) => tool.name)).toEqual(['tool_search']);
  });
});

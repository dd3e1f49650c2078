import { afterEach, describe, expect, it } from 'vitest';
import type { AssistantMessage, Chat } from '../../shared/schemas/chat.js';
import { anthropicReply, startFakeAnthropic } from '../../testing/servers/fake-anthropic.js';
import type { FakeModelServer } from '../../testing/servers/fake-model-server.js';
import { openAiChunk, openAiTextReply, openAiToolCallReply, startFakeOpenAi } from '../../testing/servers/fake-openai.js';
import { startChatHarness } from '../../testing/harness/chat-harness.js';

const servers: FakeModelServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

const texts = (chat: Chat) => chat.messages.map((message) => (message.role === 'tool-run' ? `tool-run` : `${message.role}: ${message.content}`));
type WireMessage = { role: string; content: unknown };
const lastWire = (server: FakeModelServer) => server.requests.at(-1)!.body.messages as WireMessage[];

async function openAiChat(replies: Parameters<typeof startFakeOpenAi>[0]) {
  const h = await startChatHarness();
  const openai = await startFakeOpenAi(replies);
  servers.push(openai);
  await h.provider('fake-openai', { kind: 'openai', displayName: 'Fake OpenAI', baseURL: `${openai.url}/v1` });
  const chat = await h.chat({ providerId: 'fake-openai', tools: { mode: 'auto', selected: [h.tool('weather')] } });
  return { h, openai, chat };
}

describe('message actions', () => {
  it('edits a message and sends it again: that message and all after it are replaced, the model sees only the new branch', async () => {
    const { h, openai, chat } = await openAiChat([openAiTextReply(['Paris.']), openAiTextReply(['Fine.']), openAiTextReply(['Rome.'])]);
    await h.call('chats.send', { chatId: chat.id, content: 'Capital of France?' });
    await h.settled(chat.id);
    const { messageId: second } = await h.call('chats.send', { chatId: chat.id, content: 'And how are you?' });
    await h.settled(chat.id);

    const { messageId } = await h.call('chats.send', { chatId: chat.id, content: 'Capital of Italy?', replaces: second });
    const done = await h.settled(chat.id);

    expect(texts(done)).toEqual(['user: Capital of France?', 'assistant: Paris.', 'user: Capital of Italy?', 'assistant: Rome.']);
    expect(done.messages[2]!.id).toBe(messageId);
    expect(lastWire(openai).map((message) => message.content)).toEqual(['Capital of France?', 'Paris.', 'Capital of Italy?']);
    // Windows hear which messages left before the new one arrives.
    const events = h.streamOf(chat.id);
    const rewind = events.findIndex((event) => event.type === 'rewind' && event.fromMessageId === second);
    expect(rewind).toBeGreaterThan(-1);
    expect(events.findIndex((event, index) => index > rewind && event.type === 'message')).toBeGreaterThan(rewind);
    // The title came from the first message and stays.
    expect(done.title).toBe('Capital of France?');
  });

  it('refuses to replace a message that is not the person’s, or is gone, and changes nothing', async () => {
    const { h, chat } = await openAiChat([openAiTextReply(['Paris.'])]);
    await h.call('chats.send', { chatId: chat.id, content: 'Capital of France?' });
    const before = await h.settled(chat.id);
    const answer = before.messages[1]!.id;

    expect((await h.failure('chats.send', { chatId: chat.id, content: 'x', replaces: answer })).code).toBe('invalid_params');
    expect((await h.failure('chats.send', { chatId: chat.id, content: 'x', replaces: '01900000-0000-7000-8000-000000000000' })).code).toBe('not_found');
    const after = await h.call('chats.get', { chatId: chat.id });
    expect(texts(after)).toEqual(texts(before));
    expect(after.status).toBe('idle');
  });

  it('regenerates the last answer: its tool calls and text go, the tool runs again through the normal policy', async () => {
    const { h, openai, chat } = await openAiChat([
      openAiToolCallReply([{ id: 'call_1', name: 'weather', args: ['{"city":"Oslo"}'] }]),
      openAiTextReply(['It is 21.']),
      openAiToolCallReply([{ id: 'call_2', name: 'weather', args: ['{"city":"Oslo"}'] }]),
      openAiTextReply(['Still 21.']),
    ]);
    await h.call('chats.send', { chatId: chat.id, content: 'Weather in Oslo?' });
    await h.settled(chat.id);

    await h.call('chats.regenerate', { chatId: chat.id });
    const done = await h.settled(chat.id);

    const answers = done.messages.filter((message): message is AssistantMessage => message.role === 'assistant');
    expect(answers.map((message) => message.toolCalls.map((call) => call.id))).toEqual([['call_2'], []]);
    expect(answers.at(-1)!.content).toBe('Still 21.');
    expect(h.server.requestsTo('/weather')).toHaveLength(2);
    // The model was asked with the question alone, not the old answer.
    expect(openai.requests[2]!.body.messages).toEqual([{ role: 'user', content: 'Weather in Oslo?' }]);
  });

  it('regenerate in a chat with no message of the person’s is a conflict with a next step', async () => {
    const { h, chat } = await openAiChat([]);
    const failure = await h.failure('chats.regenerate', { chatId: chat.id });
    expect(failure.code).toBe('conflict');
    expect(failure.message).toMatch(/Send one first/);
  });

  it('continues after Stop: the model gets another turn with the partial answer in the history', async () => {
    const { h, openai, chat } = await openAiChat([
      { kind: 'sse', delayMs: 30, end: 'hang', events: [openAiChunk({ role: 'assistant', content: '' }), ...['Once ', 'upon ', 'a ', 'time'].map((text) => openAiChunk({ content: text }))] },
      openAiTextReply([' there was a tool.']),
    ]);
    await h.call('chats.send', { chatId: chat.id, content: 'Tell a story' });
    await h.until(() => h.streamOf(chat.id).filter((event) => event.type === 'text-delta').length >= 2);
    await h.call('chats.cancel', { chatId: chat.id });

    await h.call('chats.continue', { chatId: chat.id });
    const done = await h.settled(chat.id);

    expect(done.lastRun?.reason).toBe('stop');
    const partial = (done.messages[1] as AssistantMessage).content;
    expect(texts(done)).toEqual(['user: Tell a story', `assistant: ${partial}`, 'assistant:  there was a tool.']);
    expect(lastWire(openai).at(-1)).toEqual({ role: 'assistant', content: partial });
  });

  it('continues on Anthropic with the stopped words as the start of the answer, without the trailing space the API refuses', async () => {
    const h = await startChatHarness();
    const anthropic = await startFakeAnthropic([anthropicReply({ text: ['Once upon '] }), anthropicReply({ text: ['a time.'] })]);
    servers.push(anthropic);
    await h.provider('fake-anthropic', { kind: 'anthropic', displayName: 'Fake Anthropic', baseURL: anthropic.url, apiKey: 'sk-ant' });
    const chat = await h.chat({ providerId: 'fake-anthropic', temperature: 0.3 });
    await h.call('chats.send', { chatId: chat.id, content: 'Tell a story' });
    await h.settled(chat.id);

    await h.call('chats.continue', { chatId: chat.id });
    await h.settled(chat.id);

    const wire = lastWire(anthropic);
    expect(wire.at(-1)).toEqual({ role: 'assistant', content: [{ type: 'text', text: 'Once upon' }] });
    expect(anthropic.requests.at(-1)!.body.temperature).toBe(0.3);
  });

  it('continue in an empty chat is a conflict; every action refuses while the chat runs', async () => {
    const { h, chat } = await openAiChat([{ kind: 'sse', delayMs: 30, end: 'hang', events: [openAiChunk({ role: 'assistant', content: 'Thinking' })] }]);
    expect((await h.failure('chats.continue', { chatId: chat.id })).code).toBe('conflict');
    const { messageId } = await h.call('chats.send', { chatId: chat.id, content: 'Hi' });
    await h.until(() => h.streamOf(chat.id).some((event) => event.type === 'text-delta'));
    expect((await h.failure('chats.regenerate', { chatId: chat.id })).code).toBe('chat_busy');
    expect((await h.failure('chats.continue', { chatId: chat.id })).code).toBe('chat_busy');
    expect((await h.failure('chats.send', { chatId: chat.id, content: 'x', replaces: messageId })).code).toBe('chat_busy');
    await h.call('chats.cancel', { chatId: chat.id });
  });
});

describe('chat settings and the list', () => {
  it('sends the temperature the chat sets, and none once it is cleared', async () => {
    const { h, openai, chat } = await openAiChat([openAiTextReply(['a']), openAiTextReply(['b'])]);
    await h.call('chats.update', { chatId: chat.id, temperature: 0.7, maxTurns: 3, onToolError: 'halt', system: 'Be brief.' });
    await h.call('chats.send', { chatId: chat.id, content: 'One' });
    await h.settled(chat.id);
    expect(openai.requests[0]!.body).toMatchObject({ temperature: 0.7, messages: [{ role: 'system', content: 'Be brief.' }, { role: 'user', content: 'One' }] });

    const cleared = await h.call('chats.update', { chatId: chat.id, temperature: null });
    expect(cleared).not.toHaveProperty('temperature');
    expect(cleared).toMatchObject({ maxTurns: 3, onToolError: 'halt' });
    await h.call('chats.send', { chatId: chat.id, content: 'Two' });
    await h.settled(chat.id);
    expect(openai.requests[1]!.body).not.toHaveProperty('temperature');
    expect((await h.failure('chats.update', { chatId: chat.id, temperature: 2.5 })).code).toBe('invalid_params');
  });

  it('pins a chat (even while it runs) and finds chats by words in their title or messages', async () => {
    const { h, chat } = await openAiChat([openAiTextReply(['The Eiffel tower is ', 'in Paris.'])]);
    const other = await h.chat({ providerId: 'fake-openai', title: 'Groceries' });
    await h.call('chats.send', { chatId: chat.id, content: 'Where is the tower?' });
    const pinned = await h.call('chats.update', { chatId: chat.id, pinned: true });
    expect(pinned.pinned).toBe(true);
    const done = await h.settled(chat.id);

    const list = await h.call('chats.list', {});
    expect(list.chats.find((entry) => entry.id === chat.id)?.pinned).toBe(true);
    expect(list.chats.find((entry) => entry.id === other.id)?.pinned).toBe(false);

    const found = await h.call('chats.search', { query: 'EIFFEL paris' });
    expect(found.results).toEqual([{ chatId: chat.id, messageId: done.messages[1]!.id, snippet: 'The Eiffel tower is in Paris.' }]);
    expect((await h.call('chats.search', { query: 'groceries' })).results).toEqual([{ chatId: other.id, snippet: 'Groceries' }]);
    expect((await h.call('chats.search', { query: 'eiffel groceries' })).results).toEqual([]);
    // Hostile queries are words like any other.
    expect((await h.call('chats.search', { query: '(a+)+$ constructor __proto__ ..' })).results).toEqual([]);
    expect((await h.failure('chats.search', { query: 'tower \uD800' })).code).toBe('invalid_params');
  });
});

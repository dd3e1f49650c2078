import { afterEach, describe, expect, it } from 'vitest';
import type { AssistantMessage, Chat } from '../../shared/schemas/chat.js';
import { geminiReply, startFakeGemini } from '../../testing/servers/fake-gemini.js';
import type { FakeModelServer } from '../../testing/servers/fake-model-server.js';
import { openAiTextReply, startFakeOpenAi } from '../../testing/servers/fake-openai.js';
import { startChatHarness } from '../../testing/harness/chat-harness.js';
import { json } from '../../testing/harness/loopback-server.js';

const servers: FakeModelServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

const assistants = (chat: Chat) => chat.messages.filter((message): message is AssistantMessage => message.role === 'assistant');

describe('what a model can do, and a chat’s context budget', () => {
  it('says what a model can do: Gemini calls in parallel by itself and lists its input size; a refusal of tools and Ollama’s dropped calls are learned', async () => {
    const h = await startChatHarness();
    const gemini = await startFakeGemini([], { models: [{ name: 'gemini-2.5-flash', inputTokenLimit: 1_000 }] });
    const openai = await startFakeOpenAi([
      { kind: 'json', status: 400, body: { error: { message: 'model "tiny" does not support tools' } } },
      // Ollama: a streamed turn with tools that ends empty; asked whole, the call is there.
      openAiTextReply([]),
      { kind: 'json', status: 200, body: { id: 'x', object: 'chat.completion', created: 0, model: 'llama', choices: [{ index: 0, finish_reason: 'tool_calls', message: { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'weather', arguments: '{"city":"Oslo"}' } }] } }] } },
      openAiTextReply(['Mild.']),
    ]);
    servers.push(gemini, openai);
    await h.provider('gemini', { kind: 'gemini', displayName: 'Gemini', baseURL: gemini.url, apiKey: 'k' });
    await h.provider('local', { kind: 'openai', displayName: 'Ollama', baseURL: `${openai.url}/v1` });

    expect(await h.call('models.capabilities', { id: 'gemini', model: 'gemini-2.5-flash' })).toEqual({
      tools: 'yes', parallelToolCalls: 'always', streamingWithTools: 'yes', images: 'yes', structuredAnswer: 'answer_tool', contextTokens: 1_000, contextSource: 'server',
    });
    expect(await h.call('models.capabilities', { id: 'local', model: 'gpt-4o-mini' })).toMatchObject({ tools: 'yes', parallelToolCalls: 'switchable', structuredAnswer: 'response_format', contextTokens: 128_000, contextSource: 'known' });
    expect(await h.call('models.capabilities', { id: 'local', model: 'llama3.1' })).not.toHaveProperty('contextTokens');

    const tiny = await h.chat({ providerId: 'local', model: 'tiny', tools: { mode: 'auto', selected: [h.tool('weather')] } });
    await h.call('chats.send', { chatId: tiny.id, content: 'hi' });
    await h.settled(tiny.id);
    expect(await h.call('models.capabilities', { id: 'local', model: 'tiny' })).toMatchObject({ tools: 'refused', toolsRefusal: expect.stringContaining('does not support tools') as unknown });

    const llama = await h.chat({ providerId: 'local', model: 'llama3.1', tools: { mode: 'auto', selected: [h.tool('weather')] } });
    await h.call('chats.send', { chatId: llama.id, content: 'Oslo?' });
    expect((await h.settled(llama.id)).status).toBe('idle');
    expect(await h.call('models.capabilities', { id: 'local', model: 'llama3.1' })).toMatchObject({ streamingWithTools: 'whole' });
  });

  it('estimates the next request against the model’s input size; dropping old results leaves one line each for the model and the whole value in the chat', async () => {
    const big = { city: 'Oslo', readings: Array.from({ length: 400 }, (_, index) => ({ hour: index, temp: 20 + (index % 5), note: 'steady westerly wind' })) };
    const h = await startChatHarness({ weatherRoute: (_request, response) => json(response, 200, big) });
    const gemini = await startFakeGemini(
      [
        geminiReply({ calls: [{ name: 'weather', args: { city: 'Oslo' } }] }),
        geminiReply({ text: ['Steady.'] }),
        geminiReply({ calls: [{ name: 'weather', args: { city: 'Oslo' } }] }),
        geminiReply({ text: ['Still steady.'] }),
        geminiReply({ text: ['Ok.'] }),
      ],
      { models: [{ name: 'gemini-2.5-flash', inputTokenLimit: 20_000 }] },
    );
    servers.push(gemini);
    await h.provider('gemini', { kind: 'gemini', displayName: 'Gemini', baseURL: gemini.url, apiKey: 'k' });
    const chat = await h.chat({ providerId: 'gemini', model: 'gemini-2.5-flash', tools: { mode: 'auto', selected: [h.tool('weather', { resultLimit: 40_000 })] } });
    await h.call('chats.send', { chatId: chat.id, content: 'Oslo today?' });
    await h.settled(chat.id);
    await h.call('chats.send', { chatId: chat.id, content: 'And now?' });
    await h.settled(chat.id);

    const before = await h.call('chats.context', { chatId: chat.id });
    expect(before.contextTokens).toBe(20_000);
    expect(before.toolTokens).toBeGreaterThan(20);
    // Two results of about 10,000 tokens each (the model reads 16 KB of each): the first can go, the latest turn's stays.
    expect(before.messageTokens).toBeGreaterThan(7_000);
    expect(before.droppable.results).toBe(1);
    expect(before.droppable.tokens).toBeGreaterThan(3_500);

    const dropped = await h.call('chats.dropOldResults', { chatId: chat.id });
    const [first, second] = assistants(dropped).flatMap((message) => message.toolCalls);
    expect(first!.contextDropped).toBe(true);
    expect(second!.contextDropped).toBeUndefined();
    expect(first!.result).toMatchObject({ ok: true, value: big });
    const after = await h.call('chats.context', { chatId: chat.id });
    expect(after.messageTokens).toBe(before.messageTokens - before.droppable.tokens);
    expect(after.droppable).toEqual({ results: 0, tokens: 0 });

    await h.call('chats.send', { chatId: chat.id, content: 'Thanks' });
    await h.settled(chat.id);
    const sent = JSON.stringify(gemini.requests.at(-1)!.body.contents);
    expect(sent.match(/removed from context/g)).toHaveLength(1);
    expect(sent).toMatch(/\[result of Weather, \d+ KB, removed from context\]/);
    expect(sent).toContain('steady westerly wind');
  });

  it('answers for tools being chosen before they are saved (the tools panel), leaving the chat as it was', async () => {
    const h = await startChatHarness();
    await h.provider('script', { kind: 'scripted', displayName: 'Script' });
    const chat = await h.chat({ providerId: 'script' });
    const saved = await h.call('chats.context', { chatId: chat.id });
    expect(saved.tools).toMatchObject({ mode: 'all', reachable: 0, offered: 0 });
    const choosing = await h.call('chats.context', { chatId: chat.id, tools: { mode: 'auto', selected: [h.tool('weather')] } });
    expect(choosing.tools).toMatchObject({ mode: 'all', reachable: 1, offered: 1 });
    expect(choosing.toolTokens).toBeGreaterThan(saved.toolTokens);
    expect((await h.call('chats.get', { chatId: chat.id })).tools).toEqual({ mode: 'auto', selected: [] });
  });
});

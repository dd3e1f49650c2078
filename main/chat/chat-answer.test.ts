import { afterEach, describe, expect, it } from 'vitest';
import type { AssistantMessage, Chat } from '../../shared/schemas/chat.js';
import { anthropicReply, startFakeAnthropic } from '../../testing/servers/fake-anthropic.js';
import { geminiReply, startFakeGemini } from '../../testing/servers/fake-gemini.js';
import type { FakeModelServer } from '../../testing/servers/fake-model-server.js';
import { openAiTextReply, openAiToolCallReply, startFakeOpenAi } from '../../testing/servers/fake-openai.js';
import { startChatHarness } from '../../testing/harness/chat-harness.js';

const servers: FakeModelServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

const assistants = (chat: Chat) => chat.messages.filter((message): message is AssistantMessage => message.role === 'assistant');
const weatherAnswer = {
  type: 'object',
  properties: { city: { type: 'string' }, temp: { type: 'number' } },
  required: ['city', 'temp'],
  additionalProperties: false,
};

describe('structured final answers', () => {
  it('OpenAI: the server is asked for json_schema output; tools still run first, and the final JSON is the answer', async () => {
    const h = await startChatHarness();
    const openai = await startFakeOpenAi([
      openAiToolCallReply([{ id: 'call_1', name: 'weather', args: ['{"city":"Oslo"}'] }]),
      openAiTextReply(['{"city":"Oslo",', '"temp":21}']),
    ]);
    servers.push(openai);
    await h.provider('fake-openai', { kind: 'openai', displayName: 'Fake OpenAI', baseURL: `${openai.url}/v1` });
    const chat = await h.chat({ providerId: 'fake-openai', answerSchema: weatherAnswer, tools: { mode: 'auto', selected: [h.tool('weather')] } });

    await h.call('chats.send', { chatId: chat.id, content: 'Weather in Oslo, as JSON' });
    const done = await h.settled(chat.id);
    expect(done.status).toBe('idle');
    expect(assistants(done).at(-1)!.answer).toEqual({ value: { city: 'Oslo', temp: 21 } });
    for (const request of openai.requests) {
      expect(request.body.response_format).toEqual({ type: 'json_schema', json_schema: { name: 'final_answer', schema: weatherAnswer, strict: false } });
    }
    expect(openai.requests[0]!.body.tools).toHaveLength(1);
  });

  it('Anthropic: the answer is the input of a tool the model must call (tool_choice "any"); a schema that is not an object is wrapped', async () => {
    const h = await startChatHarness();
    const anthropic = await startFakeAnthropic([
      anthropicReply({ calls: [{ id: 'toolu_w', name: 'weather', json: ['{"city":"Rome"}'] }] }),
      anthropicReply({ calls: [{ id: 'toolu_a', name: 'final_answer', json: ['{"city":"Rome","temp":21}'] }] }),
      anthropicReply({ calls: [{ id: 'toolu_b', name: 'final_answer', json: ['{"answer":["Rome","Oslo"]}'] }] }),
    ]);
    servers.push(anthropic);
    await h.provider('fake-anthropic', { kind: 'anthropic', displayName: 'Fake Anthropic', baseURL: anthropic.url, apiKey: 'sk-ant' });
    const chat = await h.chat({ providerId: 'fake-anthropic', answerSchema: weatherAnswer, tools: { mode: 'auto', selected: [h.tool('weather')] } });

    await h.call('chats.send', { chatId: chat.id, content: 'Weather in Rome?' });
    const done = await h.settled(chat.id);
    expect(done.status).toBe('idle');
    const final = assistants(done).at(-1)!;
    expect(final.answer).toEqual({ value: { city: 'Rome', temp: 21 } });
    // No text came: the answer's JSON is the text the model reads later.
    expect(JSON.parse(final.content)).toEqual({ city: 'Rome', temp: 21 });
    expect(final.toolCalls).toEqual([]);
    const first = anthropic.requests[0]!.body as { tools: { name: string; input_schema: unknown }[]; tool_choice: unknown };
    expect(first.tools.map((tool) => tool.name)).toEqual(['weather', 'final_answer']);
    expect(first.tools[1]!.input_schema).toEqual(weatherAnswer);
    expect(first.tool_choice).toEqual({ type: 'any' });

    // This run only: a list of cities, wrapped as the tool input's "answer".
    const cities = { type: 'array', items: { type: 'string' } };
    await h.call('chats.send', { chatId: chat.id, content: 'Which cities?', answerSchema: cities });
    const again = await h.settled(chat.id);
    expect(assistants(again).at(-1)!.answer).toEqual({ value: ['Rome', 'Oslo'] });
    const wrapped = (anthropic.requests[2]!.body as { tools: { name: string; input_schema: unknown }[] }).tools[1]!;
    expect(wrapped).toMatchObject({ name: 'final_answer', input_schema: { type: 'object', properties: { answer: cities }, required: ['answer'] } });
    // The run's schema does not stay with the chat.
    expect(again.answerSchema).toEqual(weatherAnswer);
    expect(again.run).toBeUndefined();
  });

  it('Gemini: the answer is the arguments of a function the model must call (mode ANY)', async () => {
    const h = await startChatHarness();
    const gemini = await startFakeGemini([geminiReply({ calls: [{ name: 'final_answer', args: { city: 'Paris', temp: 18 } }] })]);
    servers.push(gemini);
    await h.provider('fake-gemini', { kind: 'gemini', displayName: 'Fake Gemini', baseURL: gemini.url, apiKey: 'AIza-x' });
    const chat = await h.chat({ providerId: 'fake-gemini', model: 'gemini-2.5-flash', answerSchema: weatherAnswer });

    await h.call('chats.send', { chatId: chat.id, content: 'Paris?' });
    const done = await h.settled(chat.id);
    expect(assistants(done).at(-1)!.answer).toEqual({ value: { city: 'Paris', temp: 18 } });
    expect(gemini.requests[0]!.body).toMatchObject({
      tools: [{ functionDeclarations: [{ name: 'final_answer', parametersJsonSchema: weatherAnswer }] }],
      toolConfig: { functionCallingConfig: { mode: 'ANY' } },
    });
  });

  it('an answer that does not match gets one more turn that says what was wrong (never kept in the chat); a second miss is an error with the problems', async () => {
    const h = await startChatHarness();
    const openai = await startFakeOpenAi([
      openAiTextReply(['Sure! It is 21 degrees in Oslo.']),
      openAiTextReply(['```json\n{"city":"Oslo","temp":21}\n```']),
      openAiTextReply(['{"city":"Oslo"}']),
      openAiTextReply(['{"city":"Oslo","temp":"warm"}']),
    ]);
    servers.push(openai);
    await h.provider('fake-openai', { kind: 'openai', displayName: 'Fake OpenAI', baseURL: `${openai.url}/v1` });
    const chat = await h.chat({ providerId: 'fake-openai', answerSchema: weatherAnswer });

    await h.call('chats.send', { chatId: chat.id, content: 'Oslo?' });
    const done = await h.settled(chat.id);
    expect(done.status).toBe('idle');
    // A fenced block is read as the JSON it holds.
    expect(assistants(done).at(-1)!.answer).toEqual({ value: { city: 'Oslo', temp: 21 } });
    const nudge = (openai.requests[1]!.body.messages as { role: string; content: string }[]).at(-1)!;
    expect(nudge.role).toBe('user');
    expect(nudge.content).toContain('does not match the JSON Schema this chat requires (the answer is not JSON)');
    expect(nudge.content).toContain('"required": [');
    expect(done.messages.map((message) => message.role)).toEqual(['user', 'assistant', 'assistant']);
    // The answer that missed says so; the one that matched does not.
    expect(assistants(done).map((message) => message.answerProblem)).toEqual(['the answer is not JSON', undefined]);

    await h.call('chats.send', { chatId: chat.id, content: 'And again?' });
    const failed = await h.settled(chat.id);
    expect(failed.status).toBe('error');
    expect(failed.lastRun?.error).toEqual({
      code: 'answer_invalid',
      message: 'The model\'s answer does not match the answer schema, also when asked again: /temp must be a number. Send a message to try again, or change the schema in Chat settings.',
    });
    expect((openai.requests[3]!.body.messages as { content: string }[]).at(-1)!.content).toMatch(/does not match the JSON Schema this chat requires \(.*temp.*\)/);
    expect(assistants(failed).at(-1)!.answer).toBeUndefined();
  });

  it('refuses a schema it cannot check with, and a tool offered under the answer tool’s name', async () => {
    const h = await startChatHarness();
    await h.provider('script', { kind: 'scripted', displayName: 'Script' });
    const bad = await h.failure('chats.create', { providerId: 'script', model: 'scripted', answerSchema: { type: 'nonsense' } });
    expect(bad).toMatchObject({ code: 'invalid_params', message: expect.stringContaining('The answer schema is not a JSON Schema Toolbelt can check answers with') as unknown });
    const anthropic = await startFakeAnthropic([]);
    servers.push(anthropic);
    await h.provider('fake-anthropic', { kind: 'anthropic', displayName: 'Fake Anthropic', baseURL: anthropic.url, apiKey: 'sk-ant' });
    const chat = await h.chat({ providerId: 'fake-anthropic', answerSchema: weatherAnswer, tools: { mode: 'auto', selected: [h.tool('weather', { as: 'final_answer' })] } });
    await h.call('chats.send', { chatId: chat.id, content: 'hi' });
    const done = await h.settled(chat.id);
    expect(done.lastRun?.error).toMatchObject({ code: 'conflict', message: expect.stringContaining('offered to the model as "final_answer"') as unknown });
    expect(anthropic.requests).toHaveLength(0);
    // Back to text: null clears the schema.
    expect(await h.call('chats.update', { chatId: chat.id, answerSchema: null })).not.toHaveProperty('answerSchema');
  });
});

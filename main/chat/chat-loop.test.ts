import { afterEach, describe, expect, it } from 'vitest';
import type { ToolView } from '../../shared/schemas/tool.js';
import { toolInputOf } from '../../shared/tools/tool-input.js';
import { EXPOSED_NAME_PATTERN, type AssistantMessage, type Chat } from '../../shared/schemas/chat.js';
import { anthropicReply, startFakeAnthropic } from '../../testing/servers/fake-anthropic.js';
import { geminiReply, startFakeGemini } from '../../testing/servers/fake-gemini.js';
import type { FakeModelServer } from '../../testing/servers/fake-model-server.js';
import { openAiChunk, openAiTextReply, openAiToolCallReply, startFakeOpenAi } from '../../testing/servers/fake-openai.js';
import { startChatHarness } from '../../testing/harness/chat-harness.js';
import { json } from '../../testing/harness/loopback-server.js';

const servers: FakeModelServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

/** The tag that puts a request in the run's raw exchange stays inside Toolbelt: the server never sees it. */
const onlyWireHeaders = (server: FakeModelServer) => server.requests.length > 0 && server.requests.every((request) => !Object.keys(request.headers).some((name) => name.startsWith('x-toolbelt')));
const assistants = (chat: Chat) => chat.messages.filter((message): message is AssistantMessage => message.role === 'assistant');

describe('the tool loop with real provider SDKs', () => {
  it('runs a single tool call from OpenAI and feeds the result back for the final answer', async () => {
    const h = await startChatHarness();
    const openai = await startFakeOpenAi([
      openAiToolCallReply([{ id: 'call_w1', name: 'weather', args: ['{"city":', '"Oslo"}'] }]),
      openAiTextReply(['It is ', '21 degrees.']),
    ]);
    servers.push(openai);
    await h.provider('fake-openai', { kind: 'openai', displayName: 'Fake OpenAI', baseURL: `${openai.url}/v1`, apiKey: 'sk-openai-secret' });
    const chat = await h.chat({ providerId: 'fake-openai', tools: { mode: 'auto', selected: [h.tool('weather')] } });

    const { runId } = await h.call('chats.send', { chatId: chat.id, content: 'Weather in Oslo?' });
    const done = await h.settled(chat.id);

    expect(done.status).toBe('idle');
    expect(done.lastRun).toMatchObject({ runId, reason: 'stop' });
    expect(done.title).toBe('Weather in Oslo?');
    const [first, second] = assistants(done);
    expect(first!.toolCalls).toEqual([
      expect.objectContaining({ id: 'call_w1', name: 'weather', args: { city: 'Oslo' }, status: 'succeeded', result: expect.objectContaining({ ok: true, value: { city: 'Oslo', temp: 21 } }) as unknown }) as unknown,
    ]);
    expect(second!.content).toBe('It is 21 degrees.');
    // The tool ran once, with the secret filled in, and the model got the result as a tool message.
    expect(h.server.requestsTo('/weather')).toHaveLength(1);
    expect(h.server.requestsTo('/weather')[0]!.headers.authorization).toBe('Bearer tok-very-secret-42');
    expect(openai.requests[0]!.body.tools).toEqual([
      { type: 'function', function: { name: 'weather', description: 'Weather for a city', parameters: expect.objectContaining({ type: 'object', required: ['city'] }) as unknown } },
    ]);
    expect(openai.requests[1]!.body.messages).toContainEqual({ role: 'tool', tool_call_id: 'call_w1', content: '{"city":"Oslo","temp":21}' });
    // Events in the order a window needs them.
    const types = h.streamOf(chat.id).map((event) => event.type);
    expect(types.indexOf('tool-call')).toBeLessThan(types.indexOf('tool-result'));
    expect(types.indexOf('tool-result')).toBeLessThan(types.indexOf('text-delta'));
    expect(types.at(-1)).toBe('finish');
    // Nothing a window or file sees holds the secret.
    expect(JSON.stringify(h.events)).not.toContain('tok-very-secret-42');
    expect(JSON.stringify(done)).not.toContain('sk-openai-secret');

    // The raw exchange: both requests of the run as they went over the wire, the key masked, the answers as streamed.
    const { runs } = await h.call('chats.rawExchanges', { chatId: chat.id });
    expect(runs).toHaveLength(1);
    expect(runs[0]!.runId).toBe(runId);
    const [turn1, turn2] = runs[0]!.exchanges;
    expect(runs[0]!.exchanges).toHaveLength(2);
    expect(turn1).toMatchObject({ method: 'POST', url: `${openai.url}/v1/chat/completions`, status: 200, truncated: false });
    expect(turn1!.requestHeaders.authorization).toBe('•••');
    expect(JSON.parse(turn1!.requestBody)).toMatchObject({ model: 'fake-model', stream: true, messages: [{ role: 'user', content: 'Weather in Oslo?' }] });
    expect(turn1!.responseBody).toMatch(/^data: \{/);
    expect(turn1!.responseBody).toContain('"finish_reason":"tool_calls"');
    expect(turn1!.responseBody).toContain('data: [DONE]');
    expect(turn2!.requestBody).toContain('call_w1');
    expect(turn2!.responseBody).toContain('21 degrees.');
    expect(JSON.stringify(runs)).not.toContain('sk-openai-secret');
    expect(onlyWireHeaders(openai)).toBe(true);
  });

  it('runs two calls Anthropic asks for at once, in parallel, and answers both with results-first', async () => {
    const waiting: (() => void)[] = [];
    const h = await startChatHarness({
      // Each request waits until both have arrived: only parallel calls can finish.
      weatherRoute: (request, response) =>
        new Promise<void>((resolve) => {
          waiting.push(() => {
            json(response, 200, { city: new URL(request.url, 'http://x').searchParams.get('city') });
            resolve();
          });
          if (waiting.length === 2) for (const release of waiting) release();
        }),
    });
    const anthropic = await startFakeAnthropic([
      anthropicReply({ text: ['Checking both.'], calls: [{ id: 'toolu_a', name: 'weather', json: ['{"city":"Oslo"}'] }, { id: 'toolu_b', name: 'weather', json: ['{"city":', '"Rome"}'] }] }),
      anthropicReply({ text: ['Oslo and Rome are fine.'] }),
    ]);
    servers.push(anthropic);
    await h.provider('fake-anthropic', { kind: 'anthropic', displayName: 'Fake Anthropic', baseURL: anthropic.url, apiKey: 'sk-ant' });
    const chat = await h.chat({ providerId: 'fake-anthropic', tools: { mode: 'auto', selected: [h.tool('weather')] } });

    await h.call('chats.send', { chatId: chat.id, content: 'Oslo and Rome?' });
    const done = await h.settled(chat.id);

    expect(done.status).toBe('idle');
    expect(assistants(done)[0]!.toolCalls.map((call) => [call.id, call.status])).toEqual([
      ['toolu_a', 'succeeded'],
      ['toolu_b', 'succeeded'],
    ]);
    const followUp = anthropic.requests[1]!.body.messages as { role: string; content: { type: string; tool_use_id?: string }[] }[];
    expect(followUp.map((message) => message.role)).toEqual(['user', 'assistant', 'user']);
    expect(followUp[2]!.content.map((block) => block.tool_use_id)).toEqual(['toolu_a', 'toolu_b']);
    expect(assistants(done)[1]!.content).toBe('Oslo and Rome are fine.');
    // Its raw exchange masks the key header and keeps the named SSE events as sent.
    const [exchange] = (await h.call('chats.rawExchanges', { chatId: chat.id })).runs[0]!.exchanges;
    expect(exchange!.requestHeaders.authorization ?? exchange!.requestHeaders['x-api-key']).toBe('•••');
    expect(exchange!.responseBody).toContain('event: content_block_delta');
    expect(JSON.stringify(exchange)).not.toContain('sk-ant');
    expect(onlyWireHeaders(anthropic)).toBe(true);
  });

  it('runs Gemini’s parallel calls and sends each back with its thought signature, also after a restart', async () => {
    const h = await startChatHarness();
    const gemini = await startFakeGemini([
      geminiReply({ text: ['Checking both.'], calls: [{ name: 'weather', args: { city: 'Oslo' }, thoughtSignature: 'sig-Oslo==' }, { name: 'weather', args: { city: 'Rome' } }] }),
      geminiReply({ text: ['Both are ', 'mild.'] }),
      geminiReply({ calls: [{ name: 'weather', args: { city: 'Paris' }, id: 'fc-paris', thoughtSignature: 'sig-Paris==' }] }),
      geminiReply({ text: ['Paris too.'] }),
    ]);
    servers.push(gemini);
    await h.provider('fake-gemini', { kind: 'gemini', displayName: 'Fake Gemini', baseURL: gemini.url, apiKey: 'AIza-gemini-secret' });
    const chat = await h.chat({ providerId: 'fake-gemini', model: 'gemini-3-flash-preview', tools: { mode: 'auto', selected: [h.tool('weather')] } });

    await h.call('chats.send', { chatId: chat.id, content: 'Oslo and Rome?' });
    const done = await h.settled(chat.id);
    expect(done.status).toBe('idle');
    expect(assistants(done)[0]!.toolCalls.map((call) => [call.args, call.status, call.signature])).toEqual([
      [{ city: 'Oslo' }, 'succeeded', 'sig-Oslo=='],
      [{ city: 'Rome' }, 'succeeded', undefined],
    ]);
    expect(assistants(done)[1]!.content).toBe('Both are mild.');
    type Contents = { role: string; parts: { functionCall?: unknown; functionResponse?: { name: string; response: unknown }; thoughtSignature?: string }[] }[];
    const followUp = gemini.requests[1]!.body.contents as Contents;
    expect(followUp.map((content) => content.role)).toEqual(['user', 'model', 'user']);
    expect(followUp[1]!.parts.map((part) => part.thoughtSignature)).toEqual([undefined, 'sig-Oslo==', undefined]);
    expect(followUp[2]!.parts.map((part) => part.functionResponse?.response)).toEqual([{ output: '{"city":"Oslo","temp":21}' }, { output: '{"city":"Rome","temp":21}' }]);

    // After a restart the stored chat still has the signatures, and the next turn sends them.
    await h.restart();
    await h.call('chats.send', { chatId: chat.id, content: 'And Paris?' });
    expect((await h.settled(chat.id)).status).toBe('idle');
    const later = gemini.requests[3]!.body.contents as Contents;
    expect(later.flatMap((content) => content.parts.map((part) => part.thoughtSignature)).filter(Boolean)).toEqual(['sig-Oslo==', 'sig-Paris==']);
    expect(later[5]!.parts[0]!.functionCall).toEqual({ name: 'weather', args: { city: 'Paris' }, id: 'fc-paris' });
    const [exchange] = (await h.call('chats.rawExchanges', { chatId: chat.id })).runs.at(-1)!.exchanges;
    expect(exchange!.requestHeaders['x-goog-api-key']).toBe('•••');
    expect(exchange!.responseBody).toContain('"functionCall"');
    expect(JSON.stringify(exchange)).not.toContain('AIza-gemini-secret');
    expect(onlyWireHeaders(gemini)).toBe(true);
  });

  it('stops with a clear error when the provider rejects tools, never dropping them silently, and does not send that model tools again', async () => {
    const h = await startChatHarness();
    const openai = await startFakeOpenAi([{ kind: 'json', status: 400, body: { error: { message: 'model "tiny" does not support tools' } } }]);
    servers.push(openai);
    await h.provider('local', { kind: 'openai', displayName: 'Ollama', baseURL: `${openai.url}/v1` });
    const chat = await h.chat({ providerId: 'local', model: 'tiny', tools: { mode: 'auto', selected: [h.tool('weather')] } });

    await h.call('chats.send', { chatId: chat.id, content: 'hi' });
    const done = await h.settled(chat.id);

    expect(done.status).toBe('error');
    expect(done.lastRun?.error).toMatchObject({ code: 'tools_unsupported' });
    expect(h.streamOf(chat.id)).toContainEqual(expect.objectContaining({ type: 'error', code: 'tools_unsupported' }) as unknown);
    expect(openai.requests).toHaveLength(1);
    // Asked again with tools, the model is not sent them: the same answer, before any request.
    await h.call('chats.send', { chatId: chat.id, content: 'and now?' });
    const again = await h.settled(chat.id);
    expect(again.lastRun?.error).toMatchObject({ code: 'tools_unsupported', message: expect.stringContaining('nothing was sent this time') as unknown });
    expect(openai.requests).toHaveLength(1);
    // The chat is usable again: a new message starts a new run.
    openai.replies.push(openAiTextReply(['ok']));
    await h.call('chats.update', { chatId: chat.id, tools: { mode: 'none', selected: [] } });
    await h.call('chats.send', { chatId: chat.id, content: 'without tools then' });
    expect((await h.settled(chat.id)).status).toBe('idle');
    expect(openai.requests[1]!.body).not.toHaveProperty('tools');
  });

  it('cuts a large tool result for the model at the tool’s limit (16 KB unless the chat sets one), saying how big it was; the chat keeps the whole value', async () => {
    const report = 'x'.repeat(50_000);
    const h = await startChatHarness({ weatherRoute: (_request, response) => json(response, 200, { report }) });
    const openai = await startFakeOpenAi([
      openAiToolCallReply([{ id: 'call_big', name: 'weather', args: ['{"city":"Oslo"}'] }]),
      openAiTextReply(['A long report.']),
      openAiToolCallReply([{ id: 'call_big2', name: 'weather', args: ['{"city":"Oslo"}'] }]),
      openAiTextReply(['Shorter this time.']),
    ]);
    servers.push(openai);
    await h.provider('fake-openai', { kind: 'openai', displayName: 'Fake OpenAI', baseURL: `${openai.url}/v1` });
    const chat = await h.chat({ providerId: 'fake-openai', tools: { mode: 'auto', selected: [h.tool('weather')] } });
    await h.call('chats.send', { chatId: chat.id, content: 'Full report for Oslo?' });
    const done = await h.settled(chat.id);
    type Wire = { role: string; tool_call_id?: string; content: string };
    const sent = (request: number, id: string) => (openai.requests[request]!.body.messages as Wire[]).find((message) => message.tool_call_id === id)!.content;
    expect(sent(1, 'call_big').startsWith(`{"report":"${'x'.repeat(100)}`)).toBe(true);
    expect(sent(1, 'call_big')).toMatch(/\n\[… cut for the model: this result is 50 KB; the first 16 KB are above\. The whole value is in the chat\.\]$/);
    expect(sent(1, 'call_big').indexOf('\n[… cut')).toBe(16_000);
    expect(assistants(done)[0]!.toolCalls[0]!.result).toMatchObject({ ok: true, value: { report } });

    // A limit of the chat's own for this tool.
    await h.call('chats.update', { chatId: chat.id, tools: { mode: 'auto', selected: [{ ...h.tool('weather'), resultLimit: 2_000 }] } });
    await h.call('chats.send', { chatId: chat.id, content: 'Again, shorter.' });
    await h.settled(chat.id);
    expect(sent(3, 'call_big').indexOf('\n[… cut')).toBe(2_000);
    expect(sent(3, 'call_big2')).toContain('the first 2 KB are above');
  });

  it('cancels in the middle of a stream: the server sees the client go, the partial text stays', async () => {
    const h = await startChatHarness();
    const openai = await startFakeOpenAi([
      { kind: 'sse', delayMs: 30, end: 'hang', events: [openAiChunk({ role: 'assistant', content: '' }), ...['Once ', 'upon ', 'a ', 'time'].map((text) => openAiChunk({ content: text }))] },
      openAiTextReply(['Fine.']),
    ]);
    servers.push(openai);
    await h.provider('fake-openai', { kind: 'openai', displayName: 'Fake OpenAI', baseURL: `${openai.url}/v1` });
    const chat = await h.chat({ providerId: 'fake-openai' });

    await h.call('chats.send', { chatId: chat.id, content: 'Tell a story' });
    await h.until(() => h.streamOf(chat.id).filter((event) => event.type === 'text-delta').length >= 2);
    const cancelled = await h.call('chats.cancel', { chatId: chat.id });

    expect(cancelled.status).toBe('idle');
    expect(cancelled.lastRun?.reason).toBe('cancelled');
    const partial = assistants(cancelled)[0]!;
    expect(partial.content.startsWith('Once upon')).toBe(true);
    expect(partial.finishReason).toBe('cancelled');
    await h.until(() => openai.abandoned === 1);
    expect(h.streamOf(chat.id).at(-1)).toMatchObject({ type: 'finish', reason: 'cancelled', status: 'idle' });

    await h.call('chats.send', { chatId: chat.id, content: 'Shorter please' });
    expect((await h.settled(chat.id)).status).toBe('idle');
    expect(openai.requests[1]!.body.messages).toEqual([
      { role: 'user', content: 'Tell a story' },
      { role: 'assistant', content: partial.content },
      { role: 'user', content: 'Shorter please' },
    ]);
  });
});

describe('the tool loop with the scripted provider', () => {
  async function scripted(script: { text?: string; toolCalls?: { name: string; args?: Record<string, unknown> }[] }[], chunkDelayMs = 0) {
    const h = await startChatHarness();
    await h.provider('script', { kind: 'scripted', displayName: 'Script', script, chunkDelayMs });
    return h;
  }

  it('feeds a failing tool back to the model under "continue", and stops the run under "halt"', async () => {
    const script = [{ toolCalls: [{ name: 'broken', args: { city: 'Oslo' } }] }, { text: 'The tool failed; sorry.' }];
    const h = await scripted(script);
    const go = await h.chat({ providerId: 'script', tools: { mode: 'auto', selected: [h.tool('broken')] } });
    await h.call('chats.send', { chatId: go.id, content: 'try' });
    const continued = await h.settled(go.id);
    const failed = assistants(continued)[0]!.toolCalls[0]!;
    expect(failed.status).toBe('failed');
    expect(failed.result).toMatchObject({ ok: false, error: { code: 'http_status', status: 500 } });
    expect(assistants(continued)[1]!.content).toBe('The tool failed; sorry.');
    expect(continued.lastRun?.reason).toBe('stop');

    const halt = await h.chat({ providerId: 'script', onToolError: 'halt', tools: { mode: 'auto', selected: [h.tool('broken')] } });
    await h.call('chats.send', { chatId: halt.id, content: 'try' });
    const halted = await h.settled(halt.id);
    expect(assistants(halted)).toHaveLength(1);
    expect(halted.status).toBe('idle');
    expect(halted.lastRun).toMatchObject({ reason: 'tool_error', message: expect.stringMatching(/Broken failed \(http_status\)/) as unknown });
  });

  it('under "halt_after", stops once one tool has failed N times in a row; a success of that tool starts the count again', async () => {
    const invalid = { toolCalls: [{ name: 'weather', args: { city: 'X' } }] };
    const valid = { toolCalls: [{ name: 'weather', args: { city: 'Oslo' } }] };
    const script = [invalid, valid, invalid, invalid, { text: 'Done trying.' }];
    const h = await scripted(script);
    const chat = (limit: number) => h.chat({ providerId: 'script', onToolError: 'halt_after', toolErrorLimit: limit, tools: { mode: 'auto', selected: [h.tool('weather')] } });

    const lenient = await chat(3);
    await h.call('chats.send', { chatId: lenient.id, content: 'go' });
    const finished = await h.settled(lenient.id);
    expect(finished.lastRun?.reason).toBe('stop');
    expect(assistants(finished).at(-1)!.content).toBe('Done trying.');

    const strict = await chat(2);
    expect(strict).toMatchObject({ onToolError: 'halt_after', toolErrorLimit: 2 });
    await h.call('chats.send', { chatId: strict.id, content: 'go' });
    const halted = await h.settled(strict.id);
    expect(assistants(halted)).toHaveLength(4);
    expect(halted.lastRun).toMatchObject({ reason: 'tool_error', message: expect.stringContaining('Stopped because Weather failed 2 times in a row') as unknown });

    // Continue gives the model its next turn rather than stopping again at once.
    await h.call('chats.continue', { chatId: strict.id });
    const continued = await h.settled(strict.id);
    expect(assistants(continued).at(-1)!.content).toBe('Done trying.');
  });

  it('never offers a tool the chat denies; a call the model makes to it anyway is refused with a sentence it reads, and it goes on', async () => {
    const h = await startChatHarness();
    const openai = await startFakeOpenAi([openAiToolCallReply([{ id: 'call_d1', name: 'weather', args: ['{"city":"Oslo"}'] }]), openAiTextReply(['Without it, then.'])]);
    servers.push(openai);
    await h.provider('fake-openai', { kind: 'openai', displayName: 'Fake OpenAI', baseURL: `${openai.url}/v1`, apiKey: 'sk-openai-secret' });
    const chat = await h.chat({ providerId: 'fake-openai', onToolError: 'halt', tools: { mode: 'auto', selected: [{ ...h.tool('weather'), denied: true }, h.tool('broken')] } });
    await h.call('chats.send', { chatId: chat.id, content: 'Weather in Oslo?' });
    const done = await h.settled(chat.id);
    expect((openai.requests[0]!.body.tools as { function: { name: string } }[]).map((tool) => tool.function.name)).toEqual(['broken']);
    expect(assistants(done)[0]!.toolCalls[0]).toMatchObject({ status: 'denied', result: { ok: false, error: { code: 'tool_denied', message: 'The user does not allow the tool "weather" in this chat, so it did not run. Answer without it, or ask the user.' } } });
    expect(h.server.requestsTo('/weather')).toHaveLength(0);
    expect(openai.requests[1]!.body.messages).toContainEqual({ role: 'tool', tool_call_id: 'call_d1', content: expect.stringContaining('does not allow the tool') as unknown });
    expect(assistants(done)[1]!.content).toBe('Without it, then.');
    expect(done.lastRun?.reason).toBe('stop');
  });

  it('stops at maxTurns and says so, with every call answered', async () => {
    const loop = Array.from({ length: 5 }, () => ({ toolCalls: [{ name: 'weather', args: { city: 'Oslo' } }] }));
    const h = await scripted(loop);
    const chat = await h.chat({ providerId: 'script', maxTurns: 2, tools: { mode: 'auto', selected: [h.tool('weather')] } });
    await h.call('chats.send', { chatId: chat.id, content: 'loop forever' });
    const done = await h.settled(chat.id);
    expect(assistants(done)).toHaveLength(2);
    expect(assistants(done).every((message) => message.toolCalls.every((call) => call.status === 'succeeded'))).toBe(true);
    expect(done.lastRun).toMatchObject({ reason: 'max_turns', message: expect.stringContaining('Stopped after 2 model turns') as unknown });
    expect(h.streamOf(chat.id).at(-1)).toMatchObject({ type: 'finish', reason: 'max_turns' });
  });

  it('feeds an unknown tool name and arguments that break the schema back to the model as error results', async () => {
    const h = await scripted([
      { toolCalls: [{ name: 'teleport', args: {} }, { name: 'weather', args: { city: 'X' } }] },
      { text: 'I will stop guessing.' },
    ]);
    const chat = await h.chat({ providerId: 'script', tools: { mode: 'auto', selected: [h.tool('weather')] } });
    await h.call('chats.send', { chatId: chat.id, content: 'go' });
    const done = await h.settled(chat.id);
    const [unknown, invalid] = assistants(done)[0]!.toolCalls;
    expect(unknown).toMatchObject({ status: 'failed', result: { error: { code: 'unknown_tool', message: expect.stringContaining('Available tools: weather') as unknown } } });
    expect(invalid).toMatchObject({ status: 'failed', result: { error: { code: 'invalid_args', message: expect.stringContaining('/city') as unknown } } });
    expect(h.server.requestsTo('/weather')).toHaveLength(0);
    expect(assistants(done)[1]!.content).toBe('I will stop guessing.');
  });

  it('exposes a Unicode slug under a stable provider-safe name and maps calls back to it', async () => {
    const h = await startChatHarness();
    const openai = await startFakeOpenAi([openAiTextReply(['ok'])]);
    servers.push(openai);
    await h.provider('fake-openai', { kind: 'openai', displayName: 'Fake OpenAI', baseURL: `${openai.url}/v1` });
    const chat = await h.chat({ providerId: 'fake-openai', tools: { mode: 'auto', selected: [h.tool('météo'), h.tool('weather', { as: 'current_weather' })] } });
    await h.call('chats.send', { chatId: chat.id, content: 'hi' });
    await h.settled(chat.id);
    const names = (openai.requests[0]!.body.tools as { function: { name: string } }[]).map((tool) => tool.function.name);
    expect(names[1]).toBe('current_weather');
    expect(names[0]).toMatch(new RegExp(EXPOSED_NAME_PATTERN));
    expect(names[0]).toMatch(/^meteo_[0-9a-f]{8}$/);

    openai.replies.push(openAiToolCallReply([{ id: 'c1', name: names[0]!, args: ['{"city":"Nice"}'] }]), openAiTextReply(['Sunny.']));
    await h.call('chats.send', { chatId: chat.id, content: 'météo à Nice ?' });
    const done = await h.settled(chat.id);
    expect(assistants(done)[1]!.toolCalls[0]).toMatchObject({ name: names[0], tool: { slug: 'météo' }, status: 'succeeded' });
    // The same selection gets the same name next time.
    const again = await h.chat({ providerId: 'fake-openai', tools: { mode: 'auto', selected: [h.tool('météo')] } });
    openai.replies.push(openAiTextReply(['ok']));
    await h.call('chats.send', { chatId: again.id, content: 'hi' });
    await h.settled(again.id);
    expect((openai.requests.at(-1)!.body.tools as { function: { name: string } }[])[0]!.function.name).toBe(names[0]);
  });

  it('refuses a selection where two tools would share a name, and an unknown tool', async () => {
    const h = await scripted([]);
    const clash = await h.failure('chats.create', {
      providerId: 'script',
      model: 'm',
      tools: { mode: 'auto', selected: [h.tool('weather'), h.tool('broken', { as: 'weather' })] },
    });
    expect(clash.code).toBe('conflict');
    // In the words a person knows the tools by, not their IDs.
    expect(clash.message).toBe('“Weather” v1 of Test tools and “Broken” v1 of Test tools would both reach the model as "weather". Give one of them another name (an alias).');

    // Two versions of one tool: each view names them all, and choosing both is said as such.
    const v1 = (await h.call('tools.get', { bundleID: h.tool('weather').bundleID, toolSlug: 'weather', version: 'v1' })) as ToolView;
    await h.call('tools.put', { bundleID: v1.bundleID, toolSlug: 'weather', version: 'v2', tool: { ...toolInputOf(v1), version: 'v2' } });
    expect(((await h.call('tools.get', { bundleID: v1.bundleID, toolSlug: 'weather', version: 'v1' })) as ToolView).versions).toEqual([{ version: 'v1', isEnabled: true }, { version: 'v2', isEnabled: true }]);
    expect(((await h.call('tools.get', { bundleID: v1.bundleID, toolSlug: 'broken', version: 'v1' })) as ToolView).versions).toBeUndefined();
    const both = await h.failure('chats.create', { providerId: 'script', model: 'm', tools: { mode: 'auto', selected: [h.tool('weather'), { ...h.tool('weather'), version: 'v2' }] } });
    expect(both).toMatchObject({ code: 'conflict', message: expect.stringContaining('“Weather” v1 of Test tools and v2 are two versions of one tool') as unknown });
    const missing = await h.failure('chats.create', { providerId: 'script', model: 'm', tools: { mode: 'auto', selected: [h.tool('nope')] } });
    expect(missing.code).toBe('not_found');
    const noProvider = await h.failure('chats.create', { providerId: 'nobody', model: 'm' });
    expect(noProvider).toMatchObject({ code: 'not_found', message: expect.stringContaining('Add one in Settings') as unknown });
  });

  it('refuses a second message while a run is going', async () => {
    const h = await scripted([{ text: 'a b c d e f g h' }], 40);
    const chat = await h.chat({ providerId: 'script' });
    await h.call('chats.send', { chatId: chat.id, content: 'one' });
    const busy = await h.failure('chats.send', { chatId: chat.id, content: 'two' });
    expect(busy.code).toBe('chat_busy');
    await h.call('chats.cancel', { chatId: chat.id });
  });
});

describe('malformed tool calls from a model', () => {
  it('an Anthropic tool_use without a name or id, or with an overlong name, becomes a failed call the model reads, and the chat opens again after a restart', async () => {
    const h = await startChatHarness();
    const anthropic = await startFakeAnthropic([
      anthropicReply({ text: ['Let me check.'], calls: [{ json: ['{"city":"Oslo"}'] }, { id: 'toolu_long', name: 'x'.repeat(300), json: ['{}'] }] }),
      anthropicReply({ text: ['Sorry, that went wrong.'] }),
    ]);
    servers.push(anthropic);
    await h.provider('fake-anthropic', { kind: 'anthropic', displayName: 'Fake Anthropic', baseURL: anthropic.url, apiKey: 'sk-ant-secret' });
    const chat = await h.chat({ providerId: 'fake-anthropic', tools: { mode: 'auto', selected: [h.tool('weather')] } });
    await h.call('chats.send', { chatId: chat.id, content: 'Weather?' });
    const done = await h.settled(chat.id);

    expect(done.status).toBe('idle');
    const [nameless, overlong] = assistants(done)[0]!.toolCalls;
    expect(nameless).toMatchObject({ name: '', status: 'failed', result: { ok: false, error: { code: 'unknown_tool', message: expect.stringContaining('without giving its name') as unknown } } });
    expect(nameless!.id).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(overlong).toMatchObject({ name: 'x'.repeat(200), status: 'failed' });
    expect(assistants(done)[1]!.content).toBe('Sorry, that went wrong.');
    expect(h.server.requestsTo('/weather')).toHaveLength(0);
    // The model was told, and the chat still opens after a restart.
    expect(JSON.stringify(anthropic.requests[1]!.body.messages)).toContain('without giving its name');
    // What goes back is a history the real API accepts: every tool name is one it allows.
    const sentNames = JSON.stringify(anthropic.requests[1]!.body.messages).match(/"name":"[^"]*"/g) ?? [];
    expect(sentNames).toEqual(['"name":"unknown_tool"', '"name":"unknown_tool"']);
    await h.restart();
    expect((await h.call('chats.get', { chatId: chat.id })).messages).toHaveLength(done.messages.length);
  });
});


import { describe, expect, it } from 'vitest';
import { ToolbeltError } from '../../shared/errors.js';
import type { ChatMessage } from '../../shared/schemas/chat.js';
import { startFakeModelServer, type FakeReply } from '../../testing/servers/fake-model-server.js';
import { collectEvents, fakeServersClosedAfterEach } from '../../testing/harness/provider-streams.js';
import { OPENAI_DONE, openAiChunk, openAiTextReply, openAiToolCallReply, startFakeOpenAi } from '../../testing/servers/fake-openai.js';
import type { ModelEvent, ToolDefinition } from './model.js';
import { createOpenAiProvider, toOpenAiMessages } from './openai.js';

const servers = fakeServersClosedAfterEach();

const weather: ToolDefinition = { name: 'weather', description: 'Weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } };

async function serve(replies: FakeReply[], options: Parameters<typeof startFakeOpenAi>[1] = {}) {
  const server = servers.track(await startFakeOpenAi(replies, options));
  const provider = createOpenAiProvider({ displayName: 'Fake OpenAI', baseURL: `${server.url}/v1`, apiKey: 'sk-test-key-1234', fetch, maxRetries: 0, timeoutMs: 10_000 });
  return { server, provider };
}

const user = (content: string): ChatMessage => ({ id: '019a0000-0000-7000-8000-000000000001', role: 'user', content, createdAt: '2026-01-01T00:00:00.000Z' });

const collect = (provider: Awaited<ReturnType<typeof serve>>['provider'], tools: ToolDefinition[] = [weather]) => collectEvents(provider, { model: 'gpt-fake', messages: [user('hi')], tools, parallelToolCalls: true });

async function failure(promise: Promise<unknown>): Promise<ToolbeltError> {
  const error = await promise.then(() => null, (caught: unknown) => caught);
  expect(error).toBeInstanceOf(ToolbeltError);
  return error as ToolbeltError;
}

const callsOf = (events: ModelEvent[]) => events.flatMap((event) => (event.type === 'tool-call' ? [event.call] : []));
const finishOf = (events: ModelEvent[]) => events.find((event) => event.type === 'finish');

/** A reply made of tool-call deltas exactly as given, then a finish. */
function rawToolCalls(deltas: Record<string, unknown>[], finishReason = 'tool_calls'): FakeReply {
  return { kind: 'sse', events: [...deltas.map((delta) => openAiChunk({ tool_calls: [delta] })), openAiChunk({}, finishReason), OPENAI_DONE] };
}

describe('OpenAI adapter through the real openai SDK', () => {
  it('streams text in pieces and reports usage and the finish', async () => {
    const { provider, server } = await serve([openAiTextReply(['Hel', 'lo ', 'there'])]);
    const events = await collect(provider, []);
    expect(events.filter((event) => event.type === 'text-delta').map((event) => (event as { text: string }).text).join('')).toBe('Hello there');
    expect(events).toContainEqual({ type: 'usage', inputTokens: 10, outputTokens: 5 });
    expect(finishOf(events)).toEqual({ type: 'finish', reason: 'stop' });
    const body = server.requests[0]!.body;
    expect(body).toMatchObject({ model: 'gpt-fake', stream: true, messages: [{ role: 'user', content: 'hi' }] });
    expect(body).not.toHaveProperty('tools');
    expect(server.requests[0]!.headers.authorization).toBe('Bearer sk-test-key-1234');
  });

  it('finalises arguments only when the turn ends, after every delta', async () => {
    const { provider } = await serve([openAiToolCallReply([{ id: 'call_1', name: 'weather', args: ['{"ci', 'ty": "Pa', 'ris"}'] }])]);
    const events = await collect(provider);
    const kinds = events.map((event) => event.type);
    expect(kinds.lastIndexOf('tool-call-delta')).toBeLessThan(kinds.indexOf('tool-call'));
    expect(callsOf(events)).toEqual([{ id: 'call_1', name: 'weather', args: { city: 'Paris' } }]);
    expect(finishOf(events)).toEqual({ type: 'finish', reason: 'tool_calls' });
  });

  it('keeps two parallel calls apart when indexes start at 1 and skip', async () => {
    const { provider } = await serve([
      rawToolCalls([
        { index: 1, id: 'call_a', type: 'function', function: { name: 'weather', arguments: '{"city":' } },
        { index: 3, id: 'call_b', type: 'function', function: { name: 'weather', arguments: '' } },
        { index: 1, function: { arguments: '"Oslo"}' } },
        { index: 3, function: { arguments: '{"city":"Rome"}' } },
      ]),
    ]);
    expect(callsOf(await collect(provider))).toEqual([
      { id: 'call_a', name: 'weather', args: { city: 'Oslo' } },
      { id: 'call_b', name: 'weather', args: { city: 'Rome' } },
    ]);
  });

  it('tells calls apart by id when every call repeats index 0', async () => {
    const { provider } = await serve([
      rawToolCalls([
        { index: 0, id: 'call_a', function: { name: 'weather', arguments: '{"city":"Oslo"}' } },
        { index: 0, id: 'call_b', function: { name: 'weather', arguments: '{"city":' } },
        { index: 0, function: { arguments: '"Rome"}' } },
      ]),
    ]);
    expect(callsOf(await collect(provider))).toEqual([
      { id: 'call_a', name: 'weather', args: { city: 'Oslo' } },
      { id: 'call_b', name: 'weather', args: { city: 'Rome' } },
    ]);
  });

  it('continues the last call when a server sends no index, and makes up ids when it sends none', async () => {
    const { provider } = await serve([
      rawToolCalls([{ id: 'call_x', function: { name: 'weather', arguments: '{"city"' } }, { function: { arguments: ':"Lima"}' } }]),
      rawToolCalls([
        { index: 0, function: { name: 'weather', arguments: '{"city":"A"}' } },
        { index: 1, function: { name: 'weather', arguments: '{"city":"B"}' } },
      ]),
    ]);
    expect(callsOf(await collect(provider))).toEqual([{ id: 'call_x', name: 'weather', args: { city: 'Lima' } }]);
    const made = callsOf(await collect(provider));
    expect(made.map((call) => call.args)).toEqual([{ city: 'A' }, { city: 'B' }]);
    for (const call of made) expect(call.id).toMatch(/^[A-Za-z0-9]{9}$/);
    expect(made[0]!.id).not.toBe(made[1]!.id);
  });

  it('takes the name once whether it is repeated in every chunk or empty in later ones', async () => {
    const { provider } = await serve([
      rawToolCalls([
        { index: 0, id: 'c1', function: { name: 'weather', arguments: '{"city":' } },
        { index: 0, function: { name: 'weather', arguments: '"X"}' } },
        { index: 1, id: 'c2', function: { name: 'weather', arguments: '' } },
        { index: 1, function: { name: '', arguments: '{}' } },
      ]),
    ]);
    expect(callsOf(await collect(provider)).map((call) => call.name)).toEqual(['weather', 'weather']);
  });

  it('reads empty arguments as {} and keeps arguments that are no object raw', async () => {
    const { provider } = await serve([
      rawToolCalls([
        { index: 0, id: 'c1', function: { name: 'weather', arguments: '' } },
        { index: 1, id: 'c2', function: { name: 'weather', arguments: '{"city": "Par' } },
      ]),
    ]);
    expect(callsOf(await collect(provider))).toEqual([
      { id: 'c1', name: 'weather', args: {} },
      { id: 'c2', name: 'weather', args: {}, rawArgs: '{"city": "Par' },
    ]);
  });

  it('treats finish_reason "stop" with tool calls present as a tool turn', async () => {
    const { provider } = await serve([openAiToolCallReply([{ id: 'c1', name: 'weather', args: ['{}'] }], { finishReason: 'stop' })]);
    const events = await collect(provider);
    expect(callsOf(events)).toHaveLength(1);
    expect(finishOf(events)).toEqual({ type: 'finish', reason: 'tool_calls' });
  });

  it('reads arguments a server sends again whole at the end of the stream (vLLM’s tool parsers), and keeps broken ones raw', async () => {
    const { provider } = await serve([
      rawToolCalls([
        // The pieces, then the whole object once more as the parser flushes.
        { index: 0, id: 'c1', type: 'function', function: { name: 'weather', arguments: '{"city": "Seattle", ' } },
        { index: 0, function: { arguments: '"unit": "celsius"}' } },
        { index: 0, function: { arguments: '{"city": "Seattle", "unit": "celsius"}' } },
        // Only the opening brace streamed, then the whole object.
        { index: 1, id: 'c2', type: 'function', function: { name: 'weather', arguments: '{' } },
        { index: 1, function: { arguments: '{"city": "Orlando"}' } },
        // Two different objects are not a repeat: kept raw for the model to hear about.
        { index: 2, id: 'c3', type: 'function', function: { name: 'weather', arguments: '{"city": "A"}{"city": "B"}' } },
      ]),
    ]);
    expect(callsOf(await collect(provider)).map((call) => [call.args, call.rawArgs])).toEqual([
      [{ city: 'Seattle', unit: 'celsius' }, undefined],
      [{ city: 'Orlando' }, undefined],
      [{}, '{"city": "A"}{"city": "B"}'],
    ]);
  });

  it('reads LM Studio’s empty tool_calls lists on text chunks as no calls', async () => {
    const { provider } = await serve([
      {
        kind: 'sse',
        events: [
          openAiChunk({ role: 'assistant', content: 'Sunny', tool_calls: [] }, null, { system_fingerprint: 'qwen2.5-7b-instruct' }),
          openAiChunk({ content: ' today.', tool_calls: [] }, null, { system_fingerprint: 'qwen2.5-7b-instruct' }),
          openAiChunk({}, 'stop', { system_fingerprint: 'qwen2.5-7b-instruct' }),
          OPENAI_DONE,
        ],
      },
    ]);
    const events = await collect(provider);
    expect(callsOf(events)).toEqual([]);
    expect(finishOf(events)).toEqual({ type: 'finish', reason: 'stop' });
  });

  it('asks Ollama again without streaming when a streamed turn with tools ends empty (it drops streamed tool calls), and asks that model whole from then on', async () => {
    const ollamaEmpty: FakeReply = {
      kind: 'sse',
      events: [openAiChunk({ role: 'assistant', content: '' }, null, { system_fingerprint: 'fp_ollama' }), openAiChunk({ role: 'assistant', content: '' }, 'stop', { system_fingerprint: 'fp_ollama' }), OPENAI_DONE],
    };
    const ollamaWhole = (city: string): FakeReply => ({
      kind: 'json',
      status: 200,
      body: {
        id: 'chatcmpl-123',
        object: 'chat.completion',
        created: 1_760_000_000,
        model: 'qwen3:8b',
        system_fingerprint: 'fp_ollama',
        choices: [{ index: 0, message: { role: 'assistant', content: '', tool_calls: [{ id: 'call_w1xqz', index: 0, type: 'function', function: { name: 'weather', arguments: `{"city":"${city}"}` } }] }, finish_reason: 'tool_calls' }],
        usage: { prompt_tokens: 120, completion_tokens: 18, total_tokens: 138 },
      },
    });
    const { provider, server } = await serve([ollamaEmpty, ollamaWhole('Paris'), ollamaWhole('Rome'), openAiTextReply(['No tools, so streamed.'])]);
    const first = await collect(provider);
    expect(callsOf(first)).toEqual([{ id: 'call_w1xqz', name: 'weather', args: { city: 'Paris' } }]);
    expect(finishOf(first)).toEqual({ type: 'finish', reason: 'tool_calls' });
    expect(first).toContainEqual({ type: 'usage', inputTokens: 120, outputTokens: 18 });
    expect(server.requests.map((request) => (request.body as { stream?: boolean }).stream)).toEqual([true, false]);
    expect(server.requests[1]!.body).toMatchObject({ model: 'gpt-fake', tools: [{ type: 'function', function: { name: 'weather' } }] });

    // The next turn with tools goes straight to a whole answer; a turn without tools still streams.
    expect(callsOf(await collect(provider))).toEqual([{ id: 'call_w1xqz', name: 'weather', args: { city: 'Rome' } }]);
    await collect(provider, []);
    expect(server.requests.map((request) => (request.body as { stream?: boolean }).stream)).toEqual([true, false, false, true]);
  });

  it('fails a stream that ends without a finish marker instead of passing it off as an answer', async () => {
    const { provider } = await serve([{ kind: 'sse', events: [openAiChunk({ content: 'Half an ans' })] }]);
    const error = await failure(collect(provider, []));
    expect(error.code).toBe('provider_error');
    expect(error.message).toMatch(/ended the answer early/);
  });

  it('fails on an error event in the middle of the stream, with the server’s words', async () => {
    const { provider } = await serve([
      { kind: 'sse', events: [openAiChunk({ content: 'Par' }), { data: { error: { message: 'The server had an error while processing your request.', type: 'server_error' } } }] },
    ]);
    const error = await failure(collect(provider, []));
    expect(error.code).toBe('provider_error');
    expect(error.message).toContain('The server had an error while processing your request.');
  });

  it('says clearly when a model rejects tools, a key is refused, or the server is down', async () => {
    const { provider } = await serve([
      { kind: 'json', status: 400, body: { error: { message: 'registry.ollama.ai/library/gemma:2b does not support tools', type: 'invalid_request_error' } } },
      { kind: 'json', status: 401, body: { error: { message: 'Incorrect API key provided: sk-test-key-1234', type: 'invalid_request_error' } } },
    ]);
    const rejected = await failure(collect(provider));
    expect(rejected.code).toBe('tools_unsupported');
    expect(rejected.message).toMatch(/does not support tools.*turn tools off/);
    const refused = await failure(collect(provider));
    expect(refused.code).toBe('provider_auth');
    expect(refused.message).not.toContain('sk-test-key-1234');
    // A port that was free a moment ago: nothing listens there.
    const closed = await startFakeModelServer({ completionPath: '/v1/chat/completions' });
    await closed.close();
    const downURL = `${closed.url}/v1`;
    const down = createOpenAiProvider({ displayName: 'Down', baseURL: downURL, fetch, maxRetries: 0, timeoutMs: 5_000 });
    const unreachable = await failure(collect(down, []));
    expect(unreachable.code).toBe('provider_unreachable');
    expect(unreachable.message).toContain(downURL);
    expect(unreachable.message).toContain('ECONNREFUSED');
  });

  it('speaks Azure OpenAI through the SDK’s Azure client: the deployment in the path, api-version in the query, the key as api-key', async () => {
    const server = servers.track(await startFakeModelServer({ completionPath: '/openai/deployments/prod-4o/chat/completions', replies: [openAiToolCallReply([{ id: 'call_az', name: 'weather', args: ['{"city":"Bern"}'] }])] }));
    const provider = createOpenAiProvider({ displayName: 'Azure', baseURL: server.url, apiKey: 'azure-key-123', fetch, maxRetries: 0, timeoutMs: 10_000, azureApiVersion: '2024-10-21' });
    const events = await collectEvents(provider, { model: 'prod-4o', messages: [user('hi')], tools: [weather], parallelToolCalls: true });
    expect(callsOf(events)).toEqual([{ id: 'call_az', name: 'weather', args: { city: 'Bern' } }]);
    const [request] = server.requests;
    expect(request).toMatchObject({ method: 'POST', path: '/openai/deployments/prod-4o/chat/completions', query: 'api-version=2024-10-21' });
    expect(request!.headers['api-key']).toBe('azure-key-123');
    expect(request!.headers.authorization).toBeUndefined();
    // Azure lists models, not the deployments a chat names: no list, the deployment is typed.
    expect(await provider.listModels(new AbortController().signal)).toBeNull();
  });

  it('asks the server for its models, and says null when it has no list', async () => {
    const { provider } = await serve([], { models: ['gpt-a', 'gpt-b'] });
    expect(await provider.listModels(new AbortController().signal)).toEqual([{ id: 'gpt-a' }, { id: 'gpt-b' }]);
    const bare = servers.track(await startFakeModelServer({ completionPath: '/v1/chat/completions' }));
    const noList = createOpenAiProvider({ displayName: 'Bare', baseURL: `${bare.url}/v1`, fetch, maxRetries: 0, timeoutMs: 5_000 });
    expect(await noList.listModels(new AbortController().signal)).toBeNull();
  });

  it('sends parallel_tool_calls false only when asked, and only with tools', async () => {
    const { provider, server } = await serve([openAiTextReply(['ok']), openAiTextReply(['ok'])]);
    for await (const _ of provider.stream({ model: 'm', messages: [user('a')], tools: [weather], parallelToolCalls: false, signal: new AbortController().signal }));
    for await (const _ of provider.stream({ model: 'm', messages: [user('a')], tools: [], parallelToolCalls: false, signal: new AbortController().signal }));
    expect(server.requests[0]!.body.parallel_tool_calls).toBe(false);
    expect(server.requests[1]!.body).not.toHaveProperty('parallel_tool_calls');
  });
});

describe('the chat in Chat Completions messages', () => {
  it('answers every tool call id with a tool message, failures and denials included', () => {
    const wire = toOpenAiMessages('Be brief.', [
      user('weather?'),
      {
        id: '019a0000-0000-7000-8000-000000000002',
        role: 'assistant',
        content: '',
        model: 'm',
        createdAt: '2026-01-01T00:00:00.000Z',
        toolCalls: [
          { id: 'c1', name: 'weather', args: { city: 'Oslo' }, status: 'succeeded', result: { ok: true, value: { temp: 3 }, durationMs: 1, attempts: 1 } },
          { id: 'c2', name: 'weather', args: {}, status: 'denied', note: 'not now', result: { ok: false, error: { code: 'denied', message: 'x' }, durationMs: 0, attempts: 0 } },
          { id: 'c3', name: 'weather', args: {}, status: 'cancelled', result: { ok: false, error: { code: 'cancelled', message: 'Cancelled by the user.' }, durationMs: 0, attempts: 0 } },
        ],
      },
    ]);
    expect(wire[0]).toEqual({ role: 'system', content: 'Be brief.' });
    expect(wire[2]).toMatchObject({ role: 'assistant', content: null, tool_calls: [{ id: 'c1' }, { id: 'c2' }, { id: 'c3' }] });
    expect(wire.slice(3)).toEqual([
      { role: 'tool', tool_call_id: 'c1', content: '{"temp":3}' },
      { role: 'tool', tool_call_id: 'c2', content: 'The user denied this call. Their reason: not now' },
      { role: 'tool', tool_call_id: 'c3', content: 'Error (cancelled): Cancelled by the user.' },
    ]);
  });

  it('tells the model about palette runs the person shared, and keeps the others to the chat', () => {
    const run = (shareWithModel: boolean, city: string): ChatMessage => ({
      id: '019a0000-0000-7000-8000-000000000003',
      role: 'tool-run',
      shareWithModel,
      createdAt: '2026-01-01T00:00:00.000Z',
      call: {
        id: `run_${city}`,
        name: 'weather',
        args: { city },
        status: 'succeeded',
        tool: { bundleID: '019a0000-0000-7000-8000-000000000009', slug: 'weather', version: 'v1', displayName: 'Weather', bundleName: 'Test' },
        result: { ok: true, value: { temp: 3 }, durationMs: 1, attempts: 1 },
      },
    });
    const wire = toOpenAiMessages(undefined, [run(true, 'Oslo'), run(false, 'Rome'), user('so?')]);
    expect(wire).toEqual([
      { role: 'user', content: '[I ran the tool Weather (weather) myself with arguments {"city":"Oslo"}. Result: {"temp":3}]' },
      { role: 'user', content: 'so?' },
    ]);
  });
});

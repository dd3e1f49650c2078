import { describe, expect, it } from 'vitest';
import type { ToolbeltError } from '../../shared/errors.js';
import type { ChatMessage, ToolCall } from '../../shared/schemas/chat.js';
import { geminiChunk, geminiError, geminiReply, startFakeGemini } from '../../testing/servers/fake-gemini.js';
import type { FakeReply } from '../../testing/servers/fake-model-server.js';
import { collectEvents, fakeServersClosedAfterEach } from '../../testing/harness/provider-streams.js';
import { createGeminiProvider, toGeminiContents } from './gemini.js';
import type { ToolDefinition } from './model.js';

const servers = fakeServersClosedAfterEach();

const weather: ToolDefinition = { name: 'weather', description: 'Weather', parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } };
const at = '2026-01-01T00:00:00.000Z';
const user = (content: string): ChatMessage => ({ id: '019a0000-0000-7000-8000-000000000001', role: 'user', content, createdAt: at });
const KEY = 'AIza-test-key-"quoted"-9876';

async function serve(replies: FakeReply[], options: Parameters<typeof startFakeGemini>[1] = {}) {
  const server = servers.track(await startFakeGemini(replies, options));
  const refusedTools: string[] = [];
  const provider = createGeminiProvider({ displayName: 'Fake Gemini', baseURL: server.url, apiKey: KEY, fetch, maxRetries: 0, timeoutMs: 10_000, toolsRefused: (model) => refusedTools.push(model) });
  return { server, provider, refusedTools };
}

const collect = (provider: ReturnType<typeof createGeminiProvider>, messages: ChatMessage[] = [user('hi')], model = 'gemini-2.5-flash', signal?: AbortSignal) =>
  collectEvents(provider, { model, system: 'Be kind.', messages, tools: [weather], parallelToolCalls: true, ...(signal ? { signal } : {}) });

async function failure(run: Promise<unknown>): Promise<ToolbeltError> {
  return run.then(
    () => expect.fail('expected a failure'),
    (error: unknown) => error as ToolbeltError,
  );
}

const call = (id: string, extra: Partial<ToolCall> = {}): ToolCall => ({
  id,
  name: 'weather',
  args: { city: 'Oslo' },
  status: 'succeeded',
  result: { ok: true, value: { temp: 3 }, durationMs: 1, attempts: 1 },
  ...extra,
});
const assistant = (toolCalls: ToolCall[], content = ''): ChatMessage => ({ id: '019a0000-0000-7000-8000-000000000002', role: 'assistant', content, toolCalls, model: 'gemini-2.5-flash', createdAt: at });

describe('Gemini adapter through the real @google/genai SDK', () => {
  it('streams text, takes parallel function calls whole (ids made when Gemini sends none), and reports usage', async () => {
    const { provider, server } = await serve([
      geminiReply({ text: ['Let me ', 'check.'], calls: [{ name: 'weather', args: { city: 'Oslo' }, thoughtSignature: 'c2lnbmF0dXJl' }, { name: 'weather', args: { city: 'Rome' } }] }),
    ]);
    const events = await collect(provider);
    expect(events.flatMap((event) => (event.type === 'text-delta' ? [event.text] : [])).join('')).toBe('Let me check.');
    const calls = events.flatMap((event) => (event.type === 'tool-call' ? [event.call] : []));
    expect(calls).toEqual([
      { id: expect.stringMatching(/^tb-/) as unknown, name: 'weather', args: { city: 'Oslo' }, signature: 'c2lnbmF0dXJl' },
      { id: expect.stringMatching(/^tb-/) as unknown, name: 'weather', args: { city: 'Rome' } },
    ]);
    expect(calls[0]!.id).not.toBe(calls[1]!.id);
    expect(events).toContainEqual({ type: 'usage', inputTokens: 9, outputTokens: 7 });
    // STOP with calls is a turn that called tools.
    expect(events.at(-1)).toEqual({ type: 'finish', reason: 'tool_calls' });

    const seen = server.requests[0]!;
    expect(seen.path).toBe('/v1beta/models/gemini-2.5-flash:streamGenerateContent');
    expect(seen.query).toContain('alt=sse');
    expect(seen.headers['x-goog-api-key']).toBe(KEY);
    expect(seen.body).toMatchObject({
      contents: [{ role: 'user', parts: [{ text: 'hi' }] }],
      systemInstruction: { parts: [{ text: 'Be kind.' }] },
      tools: [{ functionDeclarations: [{ name: 'weather', description: 'Weather', parametersJsonSchema: weather.parameters }] }],
    });
  });

  it('ends a text answer with STOP as "stop" and MAX_TOKENS as "length"; a stream without a finish reason is an incomplete answer', async () => {
    const { provider } = await serve([geminiReply({ text: ['Hello'] }), geminiReply({ text: ['Cut'], finishReason: 'MAX_TOKENS' }), geminiReply({ text: ['Hal'] }, { finish: false })]);
    expect((await collect(provider)).at(-1)).toEqual({ type: 'finish', reason: 'stop' });
    expect((await collect(provider)).at(-1)).toEqual({ type: 'finish', reason: 'length' });
    const cut = await failure(collect(provider));
    expect(cut.code).toBe('provider_error');
    expect(cut.message).toMatch(/ended the answer early/);
  });

  it('says why when Gemini stops for safety or writes a call it cannot parse, and when it refuses the prompt', async () => {
    const { provider } = await serve([
      geminiReply({ finishReason: 'SAFETY' }),
      geminiReply({ finishReason: 'MALFORMED_FUNCTION_CALL' }),
      { kind: 'sse', lineEnd: '\r\n', events: [{ data: { promptFeedback: { blockReason: 'PROHIBITED_CONTENT' }, usageMetadata: { promptTokenCount: 3, totalTokenCount: 3 } } }] },
    ]);
    const safety = await failure(collect(provider));
    expect(safety.message).toBe('Fake Gemini stopped: its safety filters blocked the answer (SAFETY). Try again, rephrase the message, or pick another model.');
    expect((await failure(collect(provider))).message).toMatch(/wrote a function call it could not parse \(MALFORMED_FUNCTION_CALL\)/);
    expect((await failure(collect(provider))).message).toBe('Fake Gemini refused the message (PROHIBITED_CONTENT). Rephrase it, or try another model.');
  });

  it('turns the API’s errors into sentences with codes, the key never in them', async () => {
    const { provider, refusedTools } = await serve([
      { kind: 'json', status: 400, body: geminiError(400, 'INVALID_ARGUMENT', 'Function calling is not enabled for models/gemma-3-4b-it') },
      { kind: 'json', status: 403, body: geminiError(403, 'PERMISSION_DENIED', `Method doesn't allow unregistered callers. Key ${KEY} is invalid.`) },
      { kind: 'json', status: 404, body: geminiError(404, 'NOT_FOUND', 'models/gemini-9 is not found for API version v1beta') },
      // An error inside the stream, after a first piece of text.
      { kind: 'sse', lineEnd: '\r\n', events: [geminiChunk([{ text: 'Hal' }]), { data: geminiError(503, 'UNAVAILABLE', 'The model is overloaded. Please try again later.') }] },
    ]);
    const tools = await failure(collect(provider));
    expect(tools.code).toBe('tools_unsupported');
    expect(tools.message).toMatch(/^Fake Gemini refused the tools for gemini-2.5-flash \(HTTP 400: Function calling is not enabled for models\/gemma-3-4b-it\)/);
    // The refusal is told to the connection, which keeps that model from being sent tools again.
    expect(refusedTools).toEqual(['gemini-2.5-flash']);
    const auth = await failure(collect(provider));
    expect(auth.code).toBe('provider_auth');
    expect(auth.message).not.toContain('test-key');
    expect(auth.message).toContain('•••');
    expect((await failure(collect(provider))).code).toBe('not_found');
    const overloaded = await failure(collect(provider));
    expect(overloaded.message).toMatch(/HTTP 503: The model is overloaded/);
    expect(refusedTools).toEqual(['gemini-2.5-flash']);
  });

  it('says the server cannot be reached, and a cancel is a cancel', async () => {
    const { provider, server } = await serve([geminiReply({ text: ['a', 'b', 'c', 'd'] }, { delayMs: 200 })]);
    const controller = new AbortController();
    const cancelled = failure(collect(provider, [user('hi')], 'gemini-2.5-flash', controller.signal));
    setTimeout(() => controller.abort(), 250);
    expect((await cancelled).code).toBe('cancelled');
    await server.close();
    const unreachable = await failure(collect(provider));
    expect(unreachable.code).toBe('provider_unreachable');
    expect(unreachable.message).toMatch(/Could not reach Fake Gemini at http:\/\/127\.0\.0\.1:\d+ \(ECONNREFUSED\)/);
  });

  it('lists the models that generate content, without the "models/" prefix, with their input size', async () => {
    const { provider } = await serve([], { models: [{ name: 'gemini-2.5-flash', displayName: 'Gemini 2.5 Flash' }, { name: 'text-embedding-004', methods: ['embedContent'] }, { name: 'gemini-3-pro-preview' }] });
    expect(await provider.listModels(new AbortController().signal)).toEqual([
      { id: 'gemini-2.5-flash', displayName: 'Gemini 2.5 Flash', contextTokens: 1_048_576 },
      { id: 'gemini-3-pro-preview', displayName: 'gemini-3-pro-preview', contextTokens: 1_048_576 },
    ]);
  });
});

describe('the chat as Gemini contents', () => {
  it('answers each call with a function response in the next user turn, failures as "error", server ids sent back and ours not', () => {
    const failed = call('call_from_openai', { status: 'failed', result: { ok: false, error: { code: 'network', message: 'down' }, durationMs: 1, attempts: 1 } });
    const contents = toGeminiContents([user('weather?'), assistant([call('tb-made-here'), failed], 'Checking.'), user('thanks')], 'gemini-2.5-flash');
    expect(contents).toEqual([
      { role: 'user', parts: [{ text: 'weather?' }] },
      { role: 'model', parts: [{ text: 'Checking.' }, { functionCall: { name: 'weather', args: { city: 'Oslo' } } }, { functionCall: { name: 'weather', args: { city: 'Oslo' }, id: 'call_from_openai' } }] },
      {
        role: 'user',
        parts: [
          { functionResponse: { name: 'weather', response: { output: '{"temp":3}' } } },
          { functionResponse: { name: 'weather', id: 'call_from_openai', response: { error: 'Error (network): down' } } },
          { text: 'thanks' },
        ],
      },
    ]);
  });

  it('sends each call’s thought signature back as it came; Gemini 3 gets the documented marker for calls that have none', () => {
    const signed = assistant([call('tb-1', { signature: 'real-signature' }), call('tb-2')]);
    const unsigned = assistant([call('tb-3'), call('tb-4')]);
    const parts = (model: string) => toGeminiContents([user('a'), signed, user('b'), unsigned], model).filter((content) => content.role === 'model').map((content) => content.parts!.map((part) => part.thoughtSignature));
    // Parallel calls: only the first has a signature; the turn that had one is sent as it was.
    expect(parts('gemini-3-pro-preview')).toEqual([['real-signature', undefined], ['skip_thought_signature_validator', undefined]]);
    expect(parts('gemini-2.5-flash')).toEqual([['real-signature', undefined], [undefined, undefined]]);
  });
});

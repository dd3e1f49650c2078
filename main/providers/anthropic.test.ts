import { describe, expect, it } from 'vitest';
import type { ToolbeltError } from '../../shared/errors.js';
import type { ChatMessage } from '../../shared/schemas/chat.js';
import { anthropicError, anthropicMessageStart, anthropicReply, anthropicText, startFakeAnthropic } from '../../testing/servers/fake-anthropic.js';
import type { FakeReply } from '../../testing/servers/fake-model-server.js';
import { collectEvents, fakeServersClosedAfterEach } from '../../testing/harness/provider-streams.js';
import { createAnthropicProvider, toAnthropicMessages } from './anthropic.js';
import type { ToolDefinition } from './model.js';

const servers = fakeServersClosedAfterEach();

const weather: ToolDefinition = { name: 'weather', description: 'Weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } };
const at = '2026-01-01T00:00:00.000Z';
const user = (content: string): ChatMessage => ({ id: '019a0000-0000-7000-8000-000000000001', role: 'user', content, createdAt: at });

async function serve(replies: FakeReply[], models?: string[]) {
  const server = servers.track(await startFakeAnthropic(replies, { models }));
  const provider = createAnthropicProvider({ displayName: 'Fake Anthropic', baseURL: server.url, apiKey: 'sk-ant-test-9876', fetch, maxRetries: 0, timeoutMs: 10_000 });
  return { server, provider };
}

const collect = (provider: ReturnType<typeof createAnthropicProvider>, messages: ChatMessage[] = [user('hi')], parallelToolCalls = true) =>
  collectEvents(provider, { model: 'claude-fake', system: 'Be kind.', messages, tools: [weather], parallelToolCalls });

describe('Anthropic adapter through the real @anthropic-ai/sdk', () => {
  it('streams text, assembles input_json_delta into arguments at the block’s end, and reports usage', async () => {
    const { provider, server } = await serve([
      anthropicReply({ text: ['Let me ', 'check.'], calls: [{ id: 'toolu_1', name: 'weather', json: ['{"ci', 'ty": "Oslo"', '}'] }, { id: 'toolu_2', name: 'weather', json: [] }] }),
    ]);
    const events = await collect(provider);
    const text = events.flatMap((event) => (event.type === 'text-delta' ? [event.text] : [])).join('');
    expect(text).toBe('Let me check.');
    const kinds = events.map((event) => event.type);
    // The first call is complete before the second block starts, never before its own deltas end.
    expect(kinds.indexOf('tool-call')).toBeGreaterThan(kinds.lastIndexOf('text-delta'));
    expect(events.filter((event) => event.type === 'tool-call')).toEqual([
      { type: 'tool-call', call: { id: 'toolu_1', name: 'weather', args: { city: 'Oslo' } } },
      { type: 'tool-call', call: { id: 'toolu_2', name: 'weather', args: {} } },
    ]);
    expect(events).toContainEqual({ type: 'usage', inputTokens: 12 });
    expect(events.at(-1)).toEqual({ type: 'finish', reason: 'tool_calls' });
    const body = server.requests[0]!.body;
    expect(body).toMatchObject({ model: 'claude-fake', system: 'Be kind.', stream: true, tools: [{ name: 'weather', input_schema: { type: 'object' } }] });
    expect(body.max_tokens).toBeGreaterThan(0);
    // SDK 1.x sends the key as a bearer token; older ones as x-api-key.
    const headers = server.requests[0]!.headers;
    expect(headers['x-api-key'] ?? headers.authorization).toMatch(/^(Bearer )?sk-ant-test-9876$/);
  });

  it('fails on an error event mid-stream and on a stream that stops without message_stop', async () => {
    const { provider } = await serve([
      { kind: 'sse', events: [anthropicMessageStart(), ...anthropicText(0, ['Hal']), anthropicError('overloaded_error', 'Overloaded')] },
      anthropicReply({ text: ['cut'] }, { stop: false }),
    ]);
    const overloaded = await collect(provider).then(() => null, (error: unknown) => error as ToolbeltError);
    expect(overloaded?.code).toBe('provider_error');
    expect(overloaded?.message).toContain('Overloaded');
    const cut = await collect(provider).then(() => null, (error: unknown) => error as ToolbeltError);
    expect(cut?.code).toBe('provider_error');
    expect(cut?.message).toMatch(/ended the answer early/);
  });

  it('asks for one call at a time when the chat turns parallel calls off', async () => {
    const { provider, server } = await serve([anthropicReply({ text: ['ok'] })]);
    await collect(provider, [user('hi')], false);
    expect(server.requests[0]!.body.tool_choice).toEqual({ type: 'auto', disable_parallel_tool_use: true });
  });

  it('lists the server’s models with their display names', async () => {
    const { provider } = await serve([], ['claude-a']);
    expect(await provider.listModels(new AbortController().signal)).toEqual([{ id: 'claude-a', displayName: 'CLAUDE-A' }]);
  });
});

describe('the chat in Messages form', () => {
  it('puts tool results first in the next user message, flags errors, and keeps roles alternating', () => {
    const wire = toAnthropicMessages([
      user('weather in Oslo and Rome?'),
      {
        id: '019a0000-0000-7000-8000-000000000002',
        role: 'assistant',
        content: 'Checking.',
        model: 'm',
        createdAt: at,
        toolCalls: [
          { id: 'toolu_1', name: 'weather', args: { city: 'Oslo' }, status: 'succeeded', result: { ok: true, value: 'cold', durationMs: 1, attempts: 1 } },
          { id: 'toolu_2', name: 'weather', args: { city: 'Rome' }, status: 'failed', result: { ok: false, error: { code: 'timeout', message: 'too slow' }, durationMs: 1, attempts: 1 } },
        ],
        finishReason: 'cancelled',
      },
      user('never mind, thanks'),
    ]);
    expect(wire.map((message) => message.role)).toEqual(['user', 'assistant', 'user']);
    expect(wire[1]!.content).toEqual([
      { type: 'text', text: 'Checking.' },
      { type: 'tool_use', id: 'toolu_1', name: 'weather', input: { city: 'Oslo' } },
      { type: 'tool_use', id: 'toolu_2', name: 'weather', input: { city: 'Rome' } },
    ]);
    expect(wire[2]!.content).toEqual([
      { type: 'tool_result', tool_use_id: 'toolu_1', content: 'cold' },
      { type: 'tool_result', tool_use_id: 'toolu_2', content: 'Error (timeout): too slow', is_error: true },
      { type: 'text', text: 'never mind, thanks' },
    ]);
  });
});

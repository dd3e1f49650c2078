import { describe, expect, it } from 'vitest';
import type { ChatMessage } from '../../shared/schemas/chat.js';
import { anthropicReply, startFakeAnthropic } from '../../testing/servers/fake-anthropic.js';
import { geminiReply, startFakeGemini } from '../../testing/servers/fake-gemini.js';
import { openAiTextReply, startFakeOpenAi } from '../../testing/servers/fake-openai.js';
import { collectEvents, fakeServersClosedAfterEach } from '../../testing/harness/provider-streams.js';
import { createAnthropicProvider } from './anthropic.js';
import { createGeminiProvider } from './gemini.js';
import type { ModelProvider } from './model.js';
import { createOpenAiProvider } from './openai.js';

const servers = fakeServersClosedAfterEach();

// A 1×1 PNG, as an MCP prompt sends it.
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';

const withPicture: ChatMessage = {
  id: '019a0000-0000-7000-8000-000000000001',
  role: 'user',
  content: 'What is in it?',
  attachments: [{ kind: 'prompt', server: 'pictures', ref: 'look', title: 'Look', text: 'user: Describe this.\n\nuser: [picture image/png, 70 bytes]', images: [{ mimeType: 'image/png', data: PNG }] }],
  createdAt: '2026-01-01T00:00:00.000Z',
};

const ask = (provider: ModelProvider, model: string) => collectEvents(provider, { model, messages: [withPicture], tools: [], parallelToolCalls: true });
const options = { apiKey: 'test-key-1234', fetch, maxRetries: 0, timeoutMs: 10_000 };

describe('a prompt’s pictures reach the model as pictures, after the message’s text, through each real SDK', () => {
  it('OpenAI: an image_url part with a data URL', async () => {
    const server = servers.track(await startFakeOpenAi([openAiTextReply(['A dot.'])]));
    await ask(createOpenAiProvider({ displayName: 'OpenAI', baseURL: `${server.url}/v1`, ...options }), 'gpt-fake');
    const [message] = server.requests[0]!.body.messages as { content: unknown }[];
    expect(message!.content).toEqual([
      { type: 'text', text: expect.stringContaining('What is in it?') as unknown },
      { type: 'image_url', image_url: { url: `data:image/png;base64,${PNG}` } },
    ]);
  });

  it('Anthropic: an image block with a base64 source', async () => {
    const server = servers.track(await startFakeAnthropic([anthropicReply({ text: ['A dot.'] })]));
    await ask(createAnthropicProvider({ displayName: 'Anthropic', baseURL: server.url, ...options }), 'claude-fake');
    const [message] = server.requests[0]!.body.messages as { content: unknown }[];
    expect(message!.content).toEqual([
      { type: 'text', text: expect.stringContaining('[picture image/png, 70 bytes]') as unknown },
      { type: 'image', source: { type: 'base64', media_type: 'image/png', data: PNG } },
    ]);
  });

  it('Gemini: an inlineData part', async () => {
    const server = servers.track(await startFakeGemini([geminiReply({ text: ['A dot.'] })]));
    await ask(createGeminiProvider({ displayName: 'Gemini', baseURL: server.url, ...options, toolsRefused: () => undefined }), 'gemini-2.5-flash');
    const [content] = server.requests[0]!.body.contents as { parts: unknown }[];
    expect(content!.parts).toEqual([{ text: expect.stringContaining('What is in it?') as unknown }, { inlineData: { mimeType: 'image/png', data: PNG } }]);
  });
});

const AT = '2026-01-01T00:00:00.000Z';
// The first bytes of a WAV file: only Gemini hears audio in a turn.
const WAV = 'UklGRiQAAABXQVZFZm10IBAAAAABAAEAQB8AAEAfAAABAAgAZGF0YQAAAAA=';
/** A turn whose tool answered with a text and two pictures, one of them for the person only. */
const toolTurn: ChatMessage[] = [
  { id: '019a0000-0000-7000-8000-000000000011', role: 'user', content: 'Chart it.', createdAt: AT },
  {
    id: '019a0000-0000-7000-8000-000000000012',
    role: 'assistant',
    content: '',
    createdAt: AT,
    toolCalls: [
      {
        id: 'call_chart',
        name: 'chart',
        args: {},
        status: 'succeeded',
        result: {
          ok: true,
          value: [
            { type: 'text', text: 'Here is the chart.' },
            { type: 'image', mimeType: 'image/png', data: PNG },
            { type: 'image', mimeType: 'image/png', data: 'AAAA', annotations: { audience: ['user'] } },
            { type: 'audio', mimeType: 'audio/wav', data: WAV },
          ],
          durationMs: 1,
          attempts: 1,
        },
      },
    ],
  } as ChatMessage,
];
const askAfterTool = (provider: ModelProvider, model: string) => collectEvents(provider, { model, messages: toolTurn, tools: [], parallelToolCalls: true });

describe('pictures a tool returns reach the model as pictures (not base64 text), except those for the person only; sounds reach Gemini', () => {
  it('Anthropic: image blocks inside the tool result, after its text', async () => {
    const server = servers.track(await startFakeAnthropic([anthropicReply({ text: ['A rising line.'] })]));
    await askAfterTool(createAnthropicProvider({ displayName: 'Anthropic', baseURL: server.url, ...options }), 'claude-fake');
    const messages = server.requests[0]!.body.messages as { role: string; content: { type: string; content?: unknown }[] }[];
    const result = messages.at(-1)!.content.find((block) => block.type === 'tool_result')!;
    expect(result.content).toEqual([
      { type: 'text', text: expect.stringContaining('Here is the chart.') as unknown },
      { type: 'image', source: { type: 'base64', media_type: 'image/png', data: PNG } },
    ]);
  });

  it('OpenAI: the tool message as text, then one user message with the pictures', async () => {
    const server = servers.track(await startFakeOpenAi([openAiTextReply(['A rising line.'])]));
    await askAfterTool(createOpenAiProvider({ displayName: 'OpenAI', baseURL: `${server.url}/v1`, ...options }), 'gpt-fake');
    const messages = server.requests[0]!.body.messages as { role: string; content: unknown }[];
    expect(messages.map((message) => message.role)).toEqual(['user', 'assistant', 'tool', 'user']);
    expect(typeof messages[2]!.content).toBe('string');
    expect(messages[3]!.content).toEqual([
      { type: 'text', text: '[Pictures the tool calls returned: chart]' },
      { type: 'image_url', image_url: { url: `data:image/png;base64,${PNG}` } },
    ]);
  });

  it('Gemini: inlineData after the function response, in the same turn', async () => {
    const server = servers.track(await startFakeGemini([geminiReply({ text: ['A rising line.'] })]));
    await askAfterTool(createGeminiProvider({ displayName: 'Gemini', baseURL: server.url, ...options, toolsRefused: () => undefined }), 'gemini-2.5-flash');
    const contents = server.requests[0]!.body.contents as { role: string; parts: Record<string, unknown>[] }[];
    const last = contents.at(-1)!;
    expect(last.parts.map((part) => Object.keys(part)[0])).toEqual(['functionResponse', 'inlineData', 'inlineData']);
    expect(last.parts[1]).toEqual({ inlineData: { mimeType: 'image/png', data: PNG } });
    expect(last.parts[2]).toEqual({ inlineData: { mimeType: 'audio/wav', data: WAV } });
  });
});

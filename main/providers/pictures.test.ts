import { describe, expect, it } from 'vitest';
import type { ChatMessage } from '../../shared/schemas/chat.js';
import { anthropicReply, startFakeAnthropic } from '../testing/fake-anthropic.js';
import { geminiReply, startFakeGemini } from '../testing/fake-gemini.js';
import { openAiTextReply, startFakeOpenAi } from '../testing/fake-openai.js';
import { collectEvents, fakeServersClosedAfterEach } from '../testing/provider-streams.js';
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
  attachments: [{ kind: 'prompt', server: 'pictures', ref: 'look', title: 'Look', text: 'user: Describe this.\n\nuser: [picture image/png, 72 bytes]', images: [{ mimeType: 'image/png', data: PNG }] }],
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
      { type: 'text', text: expect.stringContaining('[picture image/png, 72 bytes]') as unknown },
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

import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { startFakeAnthropic } from '../../testing/servers/fake-anthropic.js';
import { geminiReply, startFakeGemini } from '../../testing/servers/fake-gemini.js';
import { startFakeModelServer, type FakeModelServer } from '../../testing/servers/fake-model-server.js';
import { openAiTextReply, startFakeOpenAi } from '../../testing/servers/fake-openai.js';
import { startTestCore } from '../../testing/harness/test-core.js';

const servers: FakeModelServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

describe('provider settings', () => {
  it('stores a provider with its key as a secret, and never gives the key back', async () => {
    const openai = await startFakeOpenAi([], { models: ['gpt-x', 'gpt-y'] });
    servers.push(openai);
    const { call, dataDir } = await startTestCore({ providerRetries: 0 });
    const saved = await call('providers.put', { id: 'work', kind: 'openai', displayName: 'Work gateway', baseURL: `${openai.url}/v1`, apiKey: 'sk-work-777', defaultModel: 'gpt-x' });
    expect(saved).toEqual({ id: 'work', kind: 'openai', displayName: 'Work gateway', baseURL: `${openai.url}/v1`, defaultModel: 'gpt-x', hasApiKey: true, source: 'saved' });
    expect((await call('providers.list', {})).providers).toEqual([saved]);
    expect(await readFile(path.join(dataDir, 'providers.json'), 'utf8')).not.toContain('sk-work-777');
    expect(await readFile(path.join(dataDir, 'secrets.json'), 'utf8')).not.toContain('sk-work-777');
    // Toolbelt's own secret: not among the person's, so no tool template can name it.
    expect((await call('secrets.list', {})).secrets).toEqual([]);

    // Saving again without a key keeps the stored one.
    await call('providers.put', { id: 'work', kind: 'openai', displayName: 'Work', baseURL: `${openai.url}/v1` });
    const tested = await call('providers.test', { id: 'work' });
    expect(tested).toMatchObject({ ok: true, models: ['gpt-x', 'gpt-y'], message: expect.stringContaining('2 models') as unknown });
    expect(openai.requests.at(-1)!.headers.authorization).toBe('Bearer sk-work-777');
    expect(await call('models.list', { id: 'work' })).toEqual({ models: [{ id: 'gpt-x' }, { id: 'gpt-y' }], source: 'server' });

    await call('providers.delete', { id: 'work' });
    expect((await call('providers.list', {})).providers).toEqual([]);
    expect((await call('secrets.list', {})).secrets).toEqual([]);
  });

  it('tests a server without a model list by sending it a short message, and reports a refused key', async () => {
    const openai = await startFakeOpenAi([openAiTextReply(['OK'])], {
      refuse: (request) => (request.headers.authorization === 'Bearer wrong' ? { status: 401, body: { error: { message: 'invalid key' } } } : null),
    });
    servers.push(openai);
    const { call, failure } = await startTestCore({ providerRetries: 0 });
    await call('providers.put', { id: 'lm', kind: 'openai', displayName: 'LM Studio', baseURL: `${openai.url}/v1`, defaultModel: 'qwen' });
    expect(await call('providers.test', { id: 'lm' })).toMatchObject({ ok: true, message: 'LM Studio answered with qwen.' });
    expect(await call('models.list', { id: 'lm' })).toEqual({ models: [{ id: 'qwen' }], source: 'configured' });

    await call('providers.put', { id: 'lm', kind: 'openai', displayName: 'LM Studio', baseURL: `${openai.url}/v1`, apiKey: 'wrong' });
    const refused = await failure('providers.test', { id: 'lm' });
    expect(refused).toMatchObject({ code: 'provider_auth', message: expect.stringContaining('Settings → Providers') as unknown });
    expect(refused.message).not.toContain('wrong');
    const missing = await failure('providers.test', { id: 'nope' });
    expect(missing.code).toBe('not_found');
  });

  it('keeps an Azure OpenAI provider with its endpoint and api-version, and tests it with a short message to its deployment', async () => {
    const server = await startFakeModelServer({ completionPath: '/openai/deployments/prod-4o/chat/completions', replies: [openAiTextReply(['OK'])] });
    servers.push(server);
    const { call, failure } = await startTestCore({ providerRetries: 0 });
    expect(await failure('providers.put', { id: 'azure', kind: 'azure', displayName: 'Azure' })).toMatchObject({ code: 'invalid_params', message: expect.stringContaining('needs its endpoint') as unknown });
    expect(await failure('providers.put', { id: 'azure', kind: 'azure', displayName: 'Azure', baseURL: server.url, apiVersion: 'latest' })).toMatchObject({ code: 'invalid_params' });
    const saved = await call('providers.put', { id: 'azure', kind: 'azure', displayName: 'Azure', baseURL: server.url, apiKey: 'az-key', defaultModel: 'prod-4o', apiVersion: '2025-04-01-preview' });
    expect(saved).toMatchObject({ kind: 'azure', apiVersion: '2025-04-01-preview', hasApiKey: true });
    expect(await call('providers.test', { id: 'azure' })).toMatchObject({ ok: true });
    expect(server.requests[0]).toMatchObject({ path: '/openai/deployments/prod-4o/chat/completions', query: 'api-version=2025-04-01-preview' });
    expect(server.requests[0]!.headers['api-key']).toBe('az-key');
    // Another kind keeps no api-version.
    expect(await call('providers.put', { id: 'other', kind: 'openai', displayName: 'Other', apiVersion: '2024-10-21' })).not.toHaveProperty('apiVersion');
  });

  it('adds a Gemini provider from GEMINI_API_KEY, GEMINI_BASE_URL and GEMINI_MODEL; its models are listed and a chat with it answers', async () => {
    const gemini = await startFakeGemini([geminiReply({ text: ['Hi ', 'there.'] })], { models: [{ name: 'gemini-2.5-flash', displayName: 'Gemini 2.5 Flash' }] });
    servers.push(gemini);
    const { call } = await startTestCore({ providerRetries: 0, environment: { GEMINI_API_KEY: 'AIza-env-key', GEMINI_BASE_URL: gemini.url, GEMINI_MODEL: 'gemini-2.5-flash' } });
    const listed = (await call('providers.list', {})).providers;
    expect(listed).toEqual([expect.objectContaining({ id: 'gemini', kind: 'gemini', source: 'environment', hasApiKey: true, defaultModel: 'gemini-2.5-flash' })]);
    expect(JSON.stringify(listed)).not.toContain('AIza-env-key');
    expect(await call('models.list', { id: 'gemini' })).toEqual({ models: [{ id: 'gemini-2.5-flash', displayName: 'Gemini 2.5 Flash', contextTokens: 1_048_576 }], source: 'server' });
    expect(await call('providers.test', { id: 'gemini' })).toMatchObject({ ok: true });
    const chat = await call('chats.create', { providerId: 'gemini', model: 'gemini-2.5-flash' });
    await call('chats.send', { chatId: chat.id, content: 'hello' });
    const done = await vi.waitFor(async () => {
      const chatNow = await call('chats.get', { chatId: chat.id });
      if (chatNow.status === 'running') throw new Error('still running');
      return chatNow;
    });
    expect(done.messages.at(-1)).toMatchObject({ role: 'assistant', content: 'Hi there.' });
    expect(gemini.requests.at(-1)!.headers['x-goog-api-key']).toBe('AIza-env-key');
  });

  it('adds OpenAI and Anthropic providers from the environment, which a saved one replaces', async () => {
    const anthropic = await startFakeAnthropic([], { models: ['claude-z'] });
    servers.push(anthropic);
    const { call, failure } = await startTestCore({
      providerRetries: 0,
      environment: { OPENAI_API_KEY: 'sk-env-1', OPENAI_MODEL: ' gpt-4.1-mini ', ANTHROPIC_API_KEY: 'sk-ant-env', ANTHROPIC_BASE_URL: anthropic.url, UNRELATED: 'x' },
    });
    const listed = (await call('providers.list', {})).providers;
    // The model comes from OPENAI_MODEL / ANTHROPIC_MODEL when set; never a made-up "default".
    expect(listed.find((provider) => provider.id === 'openai')?.defaultModel).toBe('gpt-4.1-mini');
    expect(listed.find((provider) => provider.id === 'anthropic')?.defaultModel).toBeUndefined();
    expect(JSON.stringify(listed)).not.toContain('"default"');

    // A chat without a model sends nothing and says what to do.
    const chat = await call('chats.create', { providerId: 'anthropic', model: '' });
    expect(await failure('chats.send', { chatId: chat.id, content: 'hello' })).toMatchObject({ code: 'invalid_params', message: expect.stringContaining('Pick a model for this chat first') as unknown });
    expect(anthropic.requests).toHaveLength(0);
    expect(listed.map((provider) => [provider.id, provider.kind, provider.source, provider.hasApiKey])).toEqual([
      ['anthropic', 'anthropic', 'environment', true],
      ['openai', 'openai', 'environment', true],
    ]);
    expect(JSON.stringify(listed)).not.toContain('sk-env-1');
    expect(await call('models.list', { id: 'anthropic' })).toEqual({ models: [{ id: 'claude-z', displayName: 'CLAUDE-Z' }], source: 'server' });
    expect((await failure('providers.delete', { id: 'openai' })).code).toBe('forbidden');

    await call('providers.put', { id: 'openai', kind: 'openai', displayName: 'My OpenAI' });
    const replaced = (await call('providers.list', {})).providers.find((provider) => provider.id === 'openai');
    expect(replaced).toMatchObject({ displayName: 'My OpenAI', source: 'saved', hasApiKey: false });
  });

  it('refuses provider ids and base URLs that are not plain', async () => {
    const { failure } = await startTestCore();
    expect((await failure('providers.put', { id: 'Bad Id', kind: 'openai', displayName: 'x' })).code).toBe('invalid_params');
    expect((await failure('providers.put', { id: 'ok', kind: 'openai', displayName: 'x', baseURL: 'file:///etc' })).code).toBe('invalid_params');
  });
});

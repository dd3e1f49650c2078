import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { startChatHarness } from '../../testing/harness/chat-harness.js';
import { PROJECT_ROOT } from '../../testing/cores/spawned-host.js';
import { startTestCore } from '../../testing/harness/test-core.js';

const EVERYTHING = { command: process.execPath, args: [path.join(PROJECT_ROOT, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js'), 'stdio'] };

describe('resources and prompts of an MCP server', () => {
  it('are listed and read, prompts filled in with their arguments, and errors say which server and why', async () => {
    const { call, failure } = await startTestCore();
    await call('mcpServers.put', { name: 'everything', config: EVERYTHING });

    const { resources, templates } = await call('mcpServers.resources', { name: 'everything' });
    const architecture = resources.find((resource) => resource.uri === 'demo://resource/static/document/architecture.md');
    expect(architecture).toMatchObject({ name: 'architecture.md', mimeType: 'text/markdown' });
    expect(templates.length).toBeGreaterThan(0);
    expect(templates[0]!.uriTemplate).toContain('{');

    const { contents } = await call('mcpServers.readResource', { name: 'everything', uri: architecture!.uri });
    expect(contents[0]).toMatchObject({ uri: architecture!.uri, mimeType: 'text/markdown' });
    expect(contents[0]!.text!.length).toBeGreaterThan(100);

    const { prompts } = await call('mcpServers.prompts', { name: 'everything' });
    expect(prompts.find((prompt) => prompt.name === 'args-prompt')).toMatchObject({
      title: 'Arguments Prompt',
      arguments: [
        { name: 'city', required: true },
        { name: 'state', required: false },
      ],
    });
    expect(await call('mcpServers.getPrompt', { name: 'everything', prompt: 'args-prompt', args: { city: 'Lyon' } })).toEqual({
      messages: [{ role: 'user', text: "What's weather in Lyon?" }],
    });

    const missingArgument = await failure('mcpServers.getPrompt', { name: 'everything', prompt: 'args-prompt', args: {} });
    expect(missingArgument).toMatchObject({ code: 'mcp_error', message: expect.stringContaining('The MCP server everything could not fill in the prompt args-prompt') as unknown });
    expect((await failure('mcpServers.readResource', { name: 'everything', uri: 'demo://nothing/here' })).code).toBe('mcp_error');
    expect((await failure('mcpServers.resources', { name: 'nobody' })).code).toBe('not_found');

    await call('mcpServers.put', { name: 'off', config: { ...EVERYTHING, disabled: true } });
    expect(await failure('mcpServers.prompts', { name: 'off' })).toMatchObject({ code: 'unavailable', message: 'The MCP server off is off. Switch it on to list its prompts.' });
  });

  it('a resource attached to a message reaches the model after the person’s words, marked with where it came from', async () => {
    const h = await startChatHarness();
    await h.call('mcpServers.put', { name: 'everything', config: EVERYTHING });
    await h.provider('echo', { kind: 'scripted', displayName: 'Echo' });
    const chat = await h.chat({ providerId: 'echo' });
    const uri = 'demo://resource/static/document/architecture.md';
    const [content] = (await h.call('mcpServers.readResource', { name: 'everything', uri })).contents;
    await h.call('chats.send', { chatId: chat.id, content: 'Summarize this', attachments: [{ kind: 'resource', server: 'everything', ref: uri, title: 'architecture.md', text: content!.text! }] });
    const done = await h.settled(chat.id);
    expect(done.title).toBe('Summarize this');
    const answer = done.messages.at(-1)!;
    expect(answer.role === 'assistant' && answer.content).toContain(`You said: Summarize this\n\n<attachment kind="resource" server="everything" ref="${uri}" title="architecture.md">\n${content!.text!.slice(0, 40)}`);

    // Only an attachment, no words: allowed, and the chat is named after it.
    const second = await h.chat({ providerId: 'echo' });
    await h.call('chats.send', { chatId: second.id, content: '', attachments: [{ kind: 'prompt', server: 'everything', ref: 'simple-prompt', title: 'Simple Prompt', text: 'Say hi.' }] });
    expect((await h.settled(second.id)).title).toBe('Simple Prompt');
    expect((await h.failure('chats.send', { chatId: second.id, content: '  ' })).code).toBe('invalid_params');
  });
});

describe('a prompt with pictures', () => {
  const PICTURES = { command: process.execPath, args: [path.join(PROJECT_ROOT, 'testing/servers/picture-mcp-server.mjs')] };

  it('keeps each picture (an image, an embedded image resource) beside its name, names formats models do not take, and a message carries them', async () => {
    const h = await startChatHarness();
    await h.call('mcpServers.put', { name: 'pictures', config: PICTURES });
    const { messages } = await h.call('mcpServers.getPrompt', { name: 'pictures', prompt: 'look', args: {} });
    expect(messages.map((message) => message.text)).toEqual([
      'What is in this picture?',
      '[picture image/png, 70 bytes]',
      '[picture image/png, 70 bytes]',
      '[picture image/svg+xml, 71 bytes, left out: models take PNG, JPEG, GIF and WebP up to 3 MB]',
    ]);
    expect(messages.map((message) => message.image?.mimeType)).toEqual([undefined, 'image/png', 'image/png', undefined]);

    await h.provider('echo', { kind: 'scripted', displayName: 'Echo' });
    const chat = await h.chat({ providerId: 'echo' });
    const image = messages[1]!.image!;
    const attachment = { kind: 'prompt' as const, server: 'pictures', ref: 'look', title: 'Look at this', text: messages.map((message) => message.text).join('\n\n'), images: [image] };
    await h.call('chats.send', { chatId: chat.id, content: '', attachments: [attachment] });
    const sent = (await h.settled(chat.id)).messages[0]!;
    expect(sent.role === 'user' && sent.attachments?.[0]?.images).toEqual([image]);

    // What a window must not send: a format that can carry script, text that is not base64.
    for (const bad of [{ mimeType: 'image/svg+xml', data: image.data }, { mimeType: 'image/png', data: '"><script>' }]) {
      const refused = await h.failure('chats.send', { chatId: chat.id, content: 'x', attachments: [{ ...attachment, images: [bad] }] });
      expect(refused.code).toBe('invalid_params');
    }
  });
});

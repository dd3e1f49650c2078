import path from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { startChatHarness } from '../../testing/harness/chat-harness.js';
import { openAiTextReply, openAiToolCallReply, startFakeOpenAi } from '../../testing/servers/fake-openai.js';
import { nextQuestion } from '../../testing/harness/live-questions.js';
import { PROJECT_ROOT } from '../../testing/cores/spawned-host.js';
import { startTestCore } from '../../testing/harness/test-core.js';
import { mcpBundleID } from '../mcp-client/identity.js';

/** The published example app server of the MCP Apps SDK, over stdio: one tool (get-time) whose UI is ui://get-time/mcp-app.html. */
const BASIC_APP = { command: process.execPath, args: [path.join(PROJECT_ROOT, 'node_modules/@modelcontextprotocol/server-basic-vanillajs/dist/index.js'), '--stdio'] };

describe('MCP Apps: the core’s side, against a published app server', () => {
  it('knows which tool has an app, serves its document with what it declared, and lets the app call its server’s tools through the one door', async () => {
    // The sandbox's shelf, as a host passes it: what the core keeps there, and the digest it answers.
    const kept: { html: string; csp?: unknown }[] = [];
    const appDocuments = { keep: (document: { html: string; csp?: unknown }) => (kept.push(document), 'd'.repeat(64)) };
    const { core, call, failure } = await startTestCore({ windowOpen: () => true, appDocuments });
    await call('mcpServers.put', { name: 'clock', config: BASIC_APP });
    const bundleID = mcpBundleID('clock');
    const tool = await call('tools.get', { bundleID, toolSlug: 'get-time', version: 'mcp' });
    expect(tool.status === 'valid' && tool.type === 'mcp' && tool.impl).toMatchObject({ ui: { resourceUri: 'ui://get-time/mcp-app.html' } });

    const app = await call('mcpApps.resource', { bundleID, toolSlug: 'get-time' });
    expect(app.uri).toBe('ui://get-time/mcp-app.html');
    expect(app.html).toMatch(/^<!doctype html>/i);
    expect(app.permissions).toEqual([]);
    // Kept for the sandbox to frame at once, named to the window by the digest.
    expect(kept).toEqual([{ html: app.html }]);
    expect(app.digest).toBe('d'.repeat(64));

    // get-time says nothing of what it changes, so (as for a model) the person is asked first.
    const calling = call('mcpApps.callTool', { bundleID, toolSlug: 'get-time', name: 'get-time', arguments: {} });
    const question = await nextQuestion(core);
    expect(question).toMatchObject({ from: { kind: 'mcp-app', server: 'clock', app: 'Get Time' }, approval: { slug: 'get-time' } });
    await call('questions.answer', { id: question.id, answer: { action: 'accept', content: {} } });
    const result = await calling;
    expect(result.isError).toBeUndefined();
    expect(result.structuredContent).toMatchObject({ time: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) as unknown });
    expect(result.content[0]).toMatchObject({ type: 'text' });

    // Declined: the app hears a failed call, in words.
    const declined = call('mcpApps.callTool', { bundleID, toolSlug: 'get-time', name: 'get-time' });
    await call('questions.answer', { id: (await nextQuestion(core)).id, answer: { action: 'decline' } });
    expect(await declined).toMatchObject({ isError: true, content: [{ type: 'text', text: expect.stringContaining('denied') as unknown }] });

    // What is not there is said so; a tool without an app has none to show.
    expect((await failure('mcpApps.resource', { bundleID, toolSlug: 'nothing' })).code).toBe('not_found');
    expect((await failure('mcpApps.callTool', { bundleID, toolSlug: 'get-time', name: 'no-such-tool' })).code).toBe('not_found');
    expect((await failure('mcpApps.readResource', { bundleID, toolSlug: 'get-time', uri: 'ui://nowhere' })).code).toBe('mcp_error');
  });
});

const PDF = { command: process.execPath, args: [path.join(PROJECT_ROOT, 'node_modules/@modelcontextprotocol/server-pdf/dist/index.js'), '--stdio'] };

describe('tools a server keeps for its app', () => {
  it('are never offered to a model: not with the whole server, not when picked by hand', async () => {
    const h = await startChatHarness();
    await h.call('mcpServers.put', { name: 'pdf', config: PDF });
    const bundleID = mcpBundleID('pdf');
    const listed = await h.call('tools.list', { bundleIDs: [bundleID], includeDisabled: true });
    const appOnly = listed.tools.filter((tool) => tool.status === 'valid' && tool.type === 'mcp' && tool.impl.ui?.visibility?.join() === 'app');
    expect(appOnly.length).toBeGreaterThanOrEqual(5);
    await h.provider('echo', { kind: 'scripted', displayName: 'Echo' });
    const picked = appOnly[0]!;
    const chat = await h.chat({ providerId: 'echo', tools: { mode: 'auto', selected: [{ bundleID, slug: picked.slug!, version: 'mcp' }], bundles: [{ bundleID }], discovery: 'all' } });
    const context = await h.call('chats.context', { chatId: chat.id });
    expect(context.tools.reachable).toBe(listed.tools.length - appOnly.length);
  });
});

describe('what an app says the model should know of it', () => {
  it('is kept with its call and read with the result from the next turn; cleared with empty text; refused for a call that is not there', async () => {
    const h = await startChatHarness();
    const openai = await startFakeOpenAi([
      openAiToolCallReply([{ id: 'call_w1', name: 'weather', args: ['{"city":"Oslo"}'] }]),
      openAiTextReply(['It is sunny.']),
      openAiTextReply(['Page 3, as the app says.']),
    ]);
    onTestFinished(() => openai.close());
    await h.provider('fake-openai', { kind: 'openai', displayName: 'Fake OpenAI', baseURL: `${openai.url}/v1`, apiKey: 'sk-test' });
    const chat = await h.chat({ providerId: 'fake-openai', tools: { mode: 'auto', selected: [h.tool('weather')] } });
    await h.call('chats.send', { chatId: chat.id, content: 'Weather in Oslo?' });
    await h.settled(chat.id);

    await h.call('chats.appContext', { chatId: chat.id, callId: 'call_w1', text: 'The viewer is on page 3 of 12.' });
    const saved = await h.call('chats.get', { chatId: chat.id });
    const call = saved.messages.flatMap((message) => (message.role === 'assistant' ? message.toolCalls : [])).find((entry) => entry.id === 'call_w1');
    expect(call?.appContext).toBe('The viewer is on page 3 of 12.');

    await h.call('chats.send', { chatId: chat.id, content: 'Which page?' });
    await h.settled(chat.id);
    const third = JSON.stringify(openai.requests[2]!.body);
    expect(third).toContain('[What its app shows now: The viewer is on page 3 of 12.]');

    await h.call('chats.appContext', { chatId: chat.id, callId: 'call_w1', text: '' });
    const cleared = await h.call('chats.get', { chatId: chat.id });
    expect(JSON.stringify(cleared)).not.toContain('page 3 of 12');
    expect((await h.failure('chats.appContext', { chatId: chat.id, callId: 'nope', text: 'x' })).code).toBe('not_found');
  });
});

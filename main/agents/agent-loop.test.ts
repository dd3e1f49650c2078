import type { ServerResponse } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import type { AssistantMessage, Chat } from '../../shared/schemas/chat.js';
import type { FakeModelServer } from '../../testing/servers/fake-model-server.js';
import { openAiTextReply, openAiToolCallReply, startFakeOpenAi } from '../../testing/servers/fake-openai.js';
import { startChatHarness, type ChatHarness } from '../../testing/harness/chat-harness.js';
import { json } from '../../testing/harness/loopback-server.js';
import { nextQuestion } from '../../testing/harness/live-questions.js';

/** An agent runs on the chat's turn loop: the rules a chat applies to its model's calls apply inside it too. */

const servers: FakeModelServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

const taskSchema = { type: 'object', properties: { task: { type: 'string', minLength: 1 } }, required: ['task'], additionalProperties: false };
const assistants = (chat: Chat) => chat.messages.filter((message): message is AssistantMessage => message.role === 'assistant');
const weatherCalls = (...cities: string[]) => openAiToolCallReply(cities.map((city, index) => ({ id: `c${index}`, name: 'weather', args: [JSON.stringify({ city })] })));

async function withAgent(h: ChatHarness, replies: Parameters<typeof startFakeOpenAi>[0], impl: Record<string, unknown>) {
  const inner = await startFakeOpenAi(replies);
  servers.push(inner);
  await h.provider('inner', { kind: 'openai', displayName: 'Inner model', baseURL: `${inner.url}/v1`, apiKey: 'sk-inner' });
  await h.call('tools.put', {
    bundleID: h.bundleID,
    toolSlug: 'researcher',
    version: 'v1',
    tool: { displayName: 'Research agent', description: 'Finds things out', type: 'agent', argSchema: taskSchema, impl: { providerId: 'inner', model: 'gpt-4o-mini', ...impl } },
  });
  return inner;
}

const invokeAgent = (h: ChatHarness, task: string) => h.call('tools.invoke', { bundleID: h.bundleID, toolSlug: 'researcher', version: 'v1', args: { task } });

describe('an agent on the chat’s turn loop', () => {
  it('runs the calls of one turn at the same time (each weather request is answered only once both have arrived)', async () => {
    const waiting: ServerResponse[] = [];
    const h = await startChatHarness({
      weatherRoute: (request, response) => {
        waiting.push(response);
        if (waiting.length === 2) for (const held of waiting.splice(0)) json(held, 200, { temp: 21 });
      },
    });
    await withAgent(h, [weatherCalls('Oslo', 'Rome'), openAiTextReply(['Both 21.'])], { tools: [h.tool('weather')] });
    const result = await invokeAgent(h, 'Oslo and Rome?');
    expect(result).toMatchObject({ ok: true, value: 'Both 21.' });
    expect(result.steps!.filter((step) => step.kind === 'call').map((step) => step.ok)).toEqual([true, true]);
  });

  it('never offers a tool the agent denies, and a call to it anyway is refused with a sentence its model reads', async () => {
    const h = await startChatHarness();
    const inner = await withAgent(h, [weatherCalls('Oslo'), openAiTextReply(['Not allowed to look.'])], { tools: [h.tool('weather', { denied: true }), h.tool('météo')] });
    const result = await invokeAgent(h, 'Oslo?');
    expect(result).toMatchObject({ ok: true, value: 'Not allowed to look.' });
    const offered = (inner.requests[0]!.body as { tools: { function: { name: string } }[] }).tools.map((tool) => tool.function.name);
    expect(offered).not.toContain('weather');
    expect(result.steps![0]).toMatchObject({ kind: 'call', name: 'weather', ok: false, summary: expect.stringContaining('tool_denied: The user does not allow the tool "weather"') as unknown });
    expect(h.server.requestsTo('/weather')).toHaveLength(0);
  });

  it('stops at a failed call when set to halt, saying which tool failed, without another model turn', async () => {
    const h = await startChatHarness();
    const inner = await withAgent(h, [openAiToolCallReply([{ id: 'c1', name: 'broken', args: ['{"city":"Oslo"}'] }]), openAiTextReply(['never'])], {
      tools: [h.tool('broken')],
      onToolError: 'halt',
    });
    const result = await invokeAgent(h, 'Oslo?');
    expect(result).toMatchObject({ ok: false, error: { code: 'agent_failed', message: 'Research agent stopped because Broken failed (http_status), and it stops when its tools fail (its "When a tool fails" setting).' } });
    expect(inner.requests).toHaveLength(1);
  });

  it('inside a chat in manual mode, asks the person before each call its model makes, as the chat would', async () => {
    const h = await startChatHarness();
    await withAgent(h, [weatherCalls('Oslo'), openAiTextReply(['Oslo is 21.'])], { tools: [h.tool('weather')] });
    await h.provider('script', { kind: 'scripted', displayName: 'Script', script: [{ toolCalls: [{ name: 'researcher', args: { task: 'Oslo?' } }] }, { text: 'Done.' }] });
    const chat = await h.chat({ providerId: 'script', toolRuns: 'manual', tools: { mode: 'auto', selected: [h.tool('researcher')] } });
    await h.call('chats.send', { chatId: chat.id, content: 'Ask the agent' });
    const waiting = await h.settled(chat.id);
    expect(waiting.status).toBe('awaiting_approval');
    const asked = nextQuestion(h.core);
    await h.call('chats.approve', { chatId: chat.id, callId: waiting.pending[0]!.callId, decision: 'allow' });
    const question = await asked;
    expect(question).toMatchObject({ from: { kind: 'agent', path: ['Research agent'] }, message: 'Research agent wants to run Weather.', approval: { slug: 'weather', args: { city: 'Oslo' } } });
    expect(h.server.requestsTo('/weather')).toHaveLength(0);
    await h.call('questions.answer', { id: question.id, answer: { action: 'accept', content: {} } });
    const done = await h.settled(chat.id);
    expect(assistants(done)[0]!.toolCalls[0]).toMatchObject({ status: 'succeeded', result: { ok: true, value: 'Oslo is 21.' } });
    expect(h.server.requestsTo('/weather')).toHaveLength(1);
  });
});

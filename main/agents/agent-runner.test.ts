import { getEventListeners } from 'node:events';
import { afterEach, describe, expect, it } from 'vitest';
import { NOT_CANCELLABLE } from '../common/signals.js';
import type { AgentStep } from '../../shared/schemas/agent-step.js';
import type { AssistantMessage, Chat } from '../../shared/schemas/chat.js';
import type { FakeModelServer } from '../../testing/servers/fake-model-server.js';
import { openAiTextReply, openAiToolCallReply, startFakeOpenAi } from '../../testing/servers/fake-openai.js';
import { startChatHarness, type ChatHarness } from '../../testing/harness/chat-harness.js';
import { json } from '../../testing/harness/loopback-server.js';
import { nextQuestion } from '../../testing/harness/live-questions.js';

const servers: FakeModelServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

const assistants = (chat: Chat) => chat.messages.filter((message): message is AssistantMessage => message.role === 'assistant');
const taskSchema = { type: 'object', properties: { task: { type: 'string', minLength: 1 } }, required: ['task'], additionalProperties: false };

async function withAgentModel(h: ChatHarness, replies: Parameters<typeof startFakeOpenAi>[0]) {
  const inner = await startFakeOpenAi(replies);
  servers.push(inner);
  await h.provider('inner', { kind: 'openai', displayName: 'Inner model', baseURL: `${inner.url}/v1`, apiKey: 'sk-inner' });
  return inner;
}

function putAgent(h: ChatHarness, slug: string, impl: Record<string, unknown>) {
  return h.call('tools.put', {
    bundleID: h.bundleID,
    toolSlug: slug,
    version: 'v1',
    tool: { displayName: slug === 'researcher' ? 'Research agent' : slug, description: 'Finds things out', type: 'agent', argSchema: taskSchema, impl: { providerId: 'inner', model: 'gpt-4o-mini', ...impl } },
  });
}

describe('agent tools', () => {
  it('runs its own model with its own prompt and tools; the final answer is the result and what it did are the steps', async () => {
    const h = await startChatHarness();
    const inner = await withAgentModel(h, [openAiToolCallReply([{ id: 'c1', name: 'weather', args: ['{"city":"Oslo"}'] }]), openAiTextReply(['Oslo is ', '21 degrees.'])]);
    await putAgent(h, 'researcher', { system: 'You research weather.', tools: [h.tool('weather')], maxTurns: 3 });

    const result = await h.call('tools.invoke', { bundleID: h.bundleID, toolSlug: 'researcher', version: 'v1', args: { task: 'Weather in Oslo?' } });
    expect(result).toMatchObject({ ok: true, value: 'Oslo is 21 degrees.' });
    expect(result.steps).toEqual([
      { turn: 1, kind: 'call', name: 'weather', tool: 'Weather', args: { city: 'Oslo' }, ok: true, summary: '{"city":"Oslo","temp":21}', durationMs: expect.any(Number) as unknown },
      { turn: 2, kind: 'text', text: 'Oslo is 21 degrees.' },
    ]);
    const first = inner.requests[0]!.body as { model: string; messages: { role: string; content: string }[]; tools: { function: { name: string } }[] };
    expect(first.model).toBe('gpt-4o-mini');
    expect(first.messages).toEqual([{ role: 'system', content: 'You research weather.' }, { role: 'user', content: 'Weather in Oslo?' }]);
    expect(first.tools.map((tool) => tool.function.name)).toEqual(['weather']);
    expect(JSON.stringify(inner.requests[1]!.body)).toContain('\\"temp\\":21');
    // The agent's own tool really ran, with its secret header.
    expect(h.server.requestsTo('/weather')).toHaveLength(1);
    // A call nobody can cancel shares one signal: the model's SDK never took back a listener it put on it.
    expect(getEventListeners(NOT_CANCELLABLE, 'abort')).toHaveLength(0);
  });

  it('is called by a chat’s model like any tool; its steps come back folded into the call', async () => {
    const h = await startChatHarness();
    const inner = await withAgentModel(h, [openAiTextReply(['Nothing to look up.'])]);
    await putAgent(h, 'researcher', { tools: [] });
    await h.provider('script', { kind: 'scripted', displayName: 'Script', script: [{ toolCalls: [{ name: 'researcher', args: { task: 'Anything?' } }] }, { text: 'The agent says nothing.' }] });
    const chat = await h.chat({ providerId: 'script', tools: { mode: 'auto', selected: [h.tool('researcher')] } });
    await h.call('chats.send', { chatId: chat.id, content: 'Ask the agent' });
    const done = await h.settled(chat.id);
    const call = assistants(done)[0]!.toolCalls[0]!;
    expect(call).toMatchObject({ name: 'researcher', status: 'succeeded', result: { ok: true, value: 'Nothing to look up.', steps: [{ turn: 1, kind: 'text', text: 'Nothing to look up.' }] } });
    expect(assistants(done).at(-1)!.content).toBe('The agent says nothing.');
    // The agent's model request is in the chat run's raw exchange, as the chat's own would be, its key masked.
    const { runs } = await h.call('chats.rawExchanges', { chatId: chat.id });
    expect(runs.map((run) => run.exchanges.map((exchange) => exchange.url))).toEqual([[`${inner.url}/v1/chat/completions`]]);
    expect(runs[0]!.exchanges[0]!.requestHeaders.authorization).toBe('•••');
    expect(runs[0]!.exchanges[0]!.responseBody).toContain('Nothing to look up');
  });

  it('stops agents calling agents at three levels, with a sentence the level above reads', async () => {
    const h = await startChatHarness();
    // Two agents that call each other (an agent is never offered to itself), each under the name "loop".
    const deeper = (task: string) => openAiToolCallReply([{ id: `c-${task}`, name: 'loop', args: [JSON.stringify({ task })] }]);
    const inner = await withAgentModel(h, [deeper('two'), deeper('three'), deeper('four'), openAiTextReply(['three gave up']), openAiTextReply(['two heard three']), openAiTextReply(['one heard two'])]);
    await putAgent(h, 'pong', { tools: [{ ...h.tool('ping'), as: 'loop' }] });
    await putAgent(h, 'ping', { tools: [{ ...h.tool('pong'), as: 'loop' }] });

    const result = await h.call('tools.invoke', { bundleID: h.bundleID, toolSlug: 'ping', version: 'v1', args: { task: 'one' } });
    expect(result).toMatchObject({ ok: true, value: 'one heard two' });
    const levelTwo = result.steps![0]!;
    expect(levelTwo).toMatchObject({ kind: 'call', name: 'loop', ok: true, summary: 'two heard three' });
    // A nested agent's steps are kept one level down, without their own.
    const levelThree = (levelTwo.steps as AgentStep[])[0]!;
    expect(levelThree).toMatchObject({ kind: 'call', name: 'loop', ok: true, summary: 'three gave up' });
    expect(levelThree).not.toHaveProperty('steps');
    // The fourth level was refused with a sentence the third level's model read.
    expect(JSON.stringify(inner.requests[3]!.body)).toContain('agent_depth): pong did not run: agents may call agents only 3 deep, and this call would be level 4.');
  });

  it('tells its model when its arguments for a tool were not JSON, and cuts long results for it at the tool’s limit', async () => {
    const big = 'x'.repeat(30_000);
    const h = await startChatHarness({ weatherRoute: (_request, response) => json(response, 200, { blob: big }) });
    const inner = await withAgentModel(h, [
      openAiToolCallReply([{ id: 'c1', name: 'weather', args: ['{"city":'] }]),
      openAiToolCallReply([{ id: 'c2', name: 'weather', args: ['{"city":"Oslo"}'] }]),
      openAiTextReply(['Done.']),
    ]);
    await putAgent(h, 'researcher', { tools: [h.tool('weather')] });
    const result = await h.call('tools.invoke', { bundleID: h.bundleID, toolSlug: 'researcher', version: 'v1', args: { task: 'Oslo?' } });
    expect(result).toMatchObject({ ok: true, value: 'Done.' });
    expect(result.steps![0]).toMatchObject({ ok: false, summary: 'invalid_args: The arguments for weather were not a JSON object: {"city":' });
    const third = JSON.stringify(inner.requests[2]!.body);
    expect(third).toContain('cut for the model: this result is 30 KB');
    expect(third.length).toBeLessThan(25_000);
  });

  it('asks the person before a call to a tool that asks first, in the approval dialog with the agent’s path; a denial is read by the agent', async () => {
    const h = await startChatHarness();
    const asks = (city: string) => openAiToolCallReply([{ id: `c-${city}`, name: 'weather', args: [JSON.stringify({ city })] }]);
    await withAgentModel(h, [asks('Oslo'), asks('Rome'), openAiTextReply(['Oslo is 21; Rome was not allowed.'])]);
    await putAgent(h, 'researcher', { tools: [h.tool('weather', { requiresApproval: true })] });

    const running = h.call('tools.invoke', { bundleID: h.bundleID, toolSlug: 'researcher', version: 'v1', args: { task: 'Oslo and Rome?' } });
    const waitingFor = () => nextQuestion(h.core);
    const first = await waitingFor();
    expect(first).toMatchObject({ from: { kind: 'agent', path: ['Research agent'] }, message: 'Research agent wants to run Weather.', approval: { slug: 'weather', displayName: 'Weather', args: { city: 'Oslo' } } });
    expect(h.server.requestsTo('/weather')).toHaveLength(0);
    await h.call('questions.answer', { id: first.id, answer: { action: 'accept', content: {} } });
    const second = await waitingFor();
    expect(second.approval?.args).toEqual({ city: 'Rome' });
    await h.call('questions.answer', { id: second.id, answer: { action: 'decline' } });

    const result = await running;
    expect(result).toMatchObject({ ok: true, value: 'Oslo is 21; Rome was not allowed.' });
    expect(result.steps!.filter((step) => step.kind === 'call').map((step) => [step.args, step.ok, step.summary?.slice(0, 30)])).toEqual([
      [{ city: 'Oslo' }, true, '{"city":"Oslo","temp":21}'],
      [{ city: 'Rome' }, false, 'denied: The user denied this c'],
    ]);
    expect(h.server.requestsTo('/weather')).toHaveLength(1);
  });

  it('run from a chat, asks the person a question (the ask-user built-in) in the window, as the agent, and goes on with the answer', async () => {
    const h = await startChatHarness();
    await withAgentModel(h, [
      openAiToolCallReply([{ id: 'q1', name: 'ask-user', args: [JSON.stringify({ question: 'Which city?', choices: ['Oslo', 'Rome'] })] }]),
      openAiTextReply(['You chose Rome.']),
    ]);
    await putAgent(h, 'researcher', { tools: [h.coreTool('ask-user')] });
    await h.provider('script', { kind: 'scripted', displayName: 'Script', script: [{ toolCalls: [{ name: 'researcher', args: { task: 'Ask which city' } }] }, { text: 'The agent heard back.' }] });
    const chat = await h.chat({ providerId: 'script', tools: { mode: 'auto', selected: [h.tool('researcher')] } });
    const asked = nextQuestion(h.core);
    await h.call('chats.send', { chatId: chat.id, content: 'Find out' });
    const question = await asked;
    expect(question).toMatchObject({ from: { kind: 'agent', path: ['Research agent'] }, message: 'Which city?', schema: { properties: { answer: { enum: ['Oslo', 'Rome'] } } } });
    await h.call('questions.answer', { id: question.id, answer: { action: 'accept', content: { answer: 'Rome' } } });
    const done = await h.settled(chat.id);
    const call = assistants(done)[0]!.toolCalls[0]!;
    expect(call).toMatchObject({ name: 'researcher', status: 'succeeded', result: { ok: true, value: 'You chose Rome.' } });
    expect(call.result?.steps?.[0]).toMatchObject({ kind: 'call', name: 'ask-user', ok: true, summary: '{"answer":"Rome"}' });
  });

  it('keeps 200 steps at most, saying later ones are not kept, so a long run is still a valid result', async () => {
    const h = await startChatHarness();
    const eleven = () => openAiToolCallReply(Array.from({ length: 11 }, (_, index) => ({ id: `c${index}`, name: 'weather', args: ['{"city":"Oslo"}'] })));
    await withAgentModel(h, [...Array.from({ length: 19 }, eleven), openAiTextReply(['Enough.'])]);
    await putAgent(h, 'researcher', { tools: [h.tool('weather')], maxTurns: 20 });
    const result = await h.call('tools.invoke', { bundleID: h.bundleID, toolSlug: 'researcher', version: 'v1', args: { task: 'Oslo, many times' } });
    expect(result).toMatchObject({ ok: true, value: 'Enough.' });
    expect(result.steps).toHaveLength(200);
    expect(result.steps!.at(-1)).toEqual({ turn: 19, kind: 'text', text: 'Later steps are not kept (200 at most).' });
  });

  it('gives up after its turns without an answer', async () => {
    const h = await startChatHarness();
    const again = () => openAiToolCallReply([{ id: 'c', name: 'weather', args: ['{"city":"Oslo"}'] }]);
    await withAgentModel(h, [again(), again()]);
    await putAgent(h, 'researcher', { tools: [h.tool('weather')], maxTurns: 2 });

    const result = await h.call('tools.invoke', { bundleID: h.bundleID, toolSlug: 'researcher', version: 'v1', args: { task: 'Oslo?' } });
    expect(result).toMatchObject({ ok: false, error: { code: 'agent_failed', message: 'Research agent gave no final answer within its 2 turns. Raise its turn limit, or ask for less.' } });
    expect(result.steps!.map((step) => step.ok)).toEqual([true, true]);
  });

  it('a cancelled chat cancels the agent’s model mid-answer', async () => {
    const h = await startChatHarness();
    const inner = await withAgentModel(h, [openAiTextReply(Array.from({ length: 50 }, (_, index) => `word${index} `), { delayMs: 100 })]);
    await putAgent(h, 'researcher', { tools: [] });
    await h.provider('script', { kind: 'scripted', displayName: 'Script', script: [{ toolCalls: [{ name: 'researcher', args: { task: 'Write a lot' } }] }, { text: 'never' }] });
    const chat = await h.chat({ providerId: 'script', tools: { mode: 'auto', selected: [h.tool('researcher')] } });
    await h.call('chats.send', { chatId: chat.id, content: 'go' });
    await h.until(() => inner.requests.length === 1);
    await h.call('chats.cancel', { chatId: chat.id });
    const done = await h.settled(chat.id);
    expect(assistants(done)[0]!.toolCalls[0]).toMatchObject({ status: 'cancelled' });
    await h.until(() => inner.abandoned === 1);
  });

  it('refuses an agent whose definition is incomplete, at the field', async () => {
    const h = await startChatHarness();
    const refused = await h.failure('tools.put', { bundleID: h.bundleID, toolSlug: 'broken', version: 'v1', tool: { displayName: 'Broken', type: 'agent', argSchema: taskSchema, impl: { providerId: 'inner', tools: [] } } });
    expect(refused).toMatchObject({ code: 'invalid_params' });
    expect(JSON.stringify(refused.details)).toContain('/impl');
  });
});

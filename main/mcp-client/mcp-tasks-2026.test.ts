import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { describe, expect, it } from 'vitest';
import type { InvokeResult } from '../../shared/schemas/invocation.js';
import type { AssistantMessage } from '../../shared/schemas/chat.js';
import { cancelAtFirstProgress, expectError, expectOk } from '../../testing/harness/invoke-harness.js';
import { startTestCore, type TestCore } from '../../testing/harness/test-core.js';
import { nextQuestion } from '../../testing/harness/live-questions.js';
import { startChatHarness } from '../../testing/harness/chat-harness.js';
import { startTasksServer } from '../../testing/harness/modern-server.js';
import { silentLogger } from '../log.js';
import { modernTaskPath, TaskCalls, TaskOutlived, type TaskReference } from './task-call.js';

// A 2026-07-28 server whose `report` tool runs only as a task of the tasks extension (io.modelcontextprotocol/tasks):
// testing/servers/tasks-2026-mcp-server.mjs, the SDK v2 server with the extension's methods answered in the shapes of
// its official schemas (no published server speaks the extension yet).

interface TasksServer {
  subject: TestCore;
  bundleID: string;
  invoke: (args: Record<string, unknown>, signal?: AbortSignal) => Promise<InvokeResult>;
  progress: string[];
  /** The server's own view: each task's status, and how many plain calls it refused. */
  states: () => Promise<{ tasks: Record<string, string>; refused: number }>;
}

async function withTasksServer(env: Record<string, string> = {}): Promise<TasksServer> {
  const url = await startTasksServer(env);
  const subject = await startTestCore();
  const server = await subject.call('mcpServers.put', { name: 'tasks', config: { url } });
  expect(server).toMatchObject({ state: 'connected', protocolVersion: '2026-07-28' });
  const progress: string[] = [];
  subject.core.events.subscribe((event) => {
    if (event.type === 'tools.progress' && event.progressId === 'report' && event.message) progress.push(event.message);
  });
  const invoke = (args: Record<string, unknown>, signal?: AbortSignal) =>
    subject.core.dispatcher.call('tools.invoke', { bundleID: server.bundleID, toolSlug: 'report', version: 'mcp', args, progressId: 'report' }, { transport: 'internal', ...(signal ? { signal } : {}) }) as Promise<InvokeResult>;
  const states = async () => JSON.parse(String(expectOk(await subject.call('tools.invoke', { bundleID: server.bundleID, toolSlug: 'task_states', version: 'mcp', args: {} })).value)) as { tasks: Record<string, string>; refused: number };
  return { subject, bundleID: server.bundleID, invoke, progress, states };
}

describe('MCP tools that run as tasks of the 2026-07-28 tasks extension', () => {
  it('runs as a task whose stages reach the person as progress; its result arrives at the end; the next call goes straight to a task', async () => {
    const { invoke, progress, states } = await withTasksServer();
    expect(String(expectOk(await invoke({ topic: 'tides' })).value)).toBe('# Report: tides');
    expect(progress).toEqual(expect.arrayContaining(['Stage 2 of 4', 'Stage 3 of 4', 'Stage 4 of 4']));
    // The first plain call was refused (the tool does not say in its listing that it needs a task); the next is not tried plainly.
    expect(String(expectOk(await invoke({ topic: 'dunes' })).value)).toBe('# Report: dunes');
    const seen = await states();
    expect(Object.values(seen.tasks)).toEqual(['completed', 'completed']);
    expect(seen.refused).toBe(1);
  });

  it('a task that needs the person asks through the question form and goes on with the answer', async () => {
    const { subject, invoke } = await withTasksServer();
    const running = invoke({ topic: 'ask' });
    const question = await nextQuestion(subject.core);
    expect(question).toMatchObject({ from: { kind: 'mcp-server', server: 'tasks' }, message: 'Which meaning of the topic?' });
    await subject.call('questions.answer', { id: question.id, answer: { action: 'accept', content: { meaning: 'the sea' } } });
    expect(String(expectOk(await running).value)).toBe('# Report: ask (the sea)');
  });

  it('a task that asks again after every answer is stopped after ten rounds, with a code saying so, and cancelled', async () => {
    const { subject, invoke, states } = await withTasksServer({ STAGE_MS: '20' });
    const running = invoke({ topic: 'ask_forever' });
    let asked = 0;
    for (;;) {
      const question = await Promise.race([nextQuestion(subject.core), running.then(() => null)]);
      if (!question) break;
      asked++;
      await subject.call('questions.answer', { id: question.id, answer: { action: 'accept', content: { meaning: `answer ${asked}` } } });
    }
    expect(expectError(await running, 'mcp_input_rounds').message).toContain('asked for more input 10 times');
    expect(asked).toBeLessThanOrEqual(11);
    expect(Object.values((await states()).tasks)).toEqual(['cancelled']);
    expect((await subject.call('questions.list', {})).questions).toEqual([]);
  });

  it('cancelling the call cancels the task on the server', async () => {
    const { subject, invoke, progress, states } = await withTasksServer({ STAGE_MS: '400' });
    expectError(await cancelAtFirstProgress(subject.core, (signal) => invoke({ topic: 'glaciers' }, signal)), 'cancelled');
    expect(progress).not.toContain('Stage 4 of 4');
    expect(Object.values((await states()).tasks)).toEqual(['cancelled']);
  });

  it('a server that says 2026 and answers tasks/get in 2025 shapes fails the call with a clear error, soon, and goes on serving', async () => {
    const { invoke, states } = await withTasksServer({ OLD_SHAPES: '1', STAGE_MS: '20' });
    const failed = expectError(await invoke({ topic: 'confused' }), 'mcp_error');
    expect(failed.message).toContain('answered about its task in a shape MCP tasks do not allow');
    expect(Object.values((await states()).tasks)).toHaveLength(1);
  });

  it('a task that fails says the server’s reason, and the server goes on serving', async () => {
    const { invoke, states } = await withTasksServer({ STAGE_MS: '20' });
    expect(expectError(await invoke({ topic: 'fail' }), 'mcp_error').message).toContain('The sources ran dry.');
    expect(String(expectOk(await invoke({ topic: 'after' })).value)).toBe('# Report: after');
    expect(Object.values((await states()).tasks)).toEqual(['failed', 'completed']);
  });
});

describe('a chat waiting on a 2026 task when the app is closed', () => {
  it('leaves the task to its server, follows it again at the next start to its result, and the model goes on with it', async () => {
    const url = await startTasksServer({ STAGES: '3', STAGE_MS: '700' });
    const h = await startChatHarness();
    const server = await h.call('mcpServers.put', { name: 'tasks', config: { url, askFirst: 'never' } });
    await h.provider('script', { kind: 'scripted', displayName: 'Script', script: [{ toolCalls: [{ name: 'report', args: { topic: 'tides' } }] }, { text: 'Here is the report.' }] });
    const chat = await h.chat({ providerId: 'script', tools: { mode: 'auto', selected: [{ bundleID: server.bundleID, slug: 'report', version: 'mcp' }] } });
    await h.call('chats.send', { chatId: chat.id, content: 'a report on tides' });
    await h.until(() => h.events.some(({ event }) => event.type === 'tool-call' && event.call.task !== undefined));
    const task = h.events.flatMap(({ event }) => (event.type === 'tool-call' && event.call.task ? [event.call.task] : []))[0]!;
    expect(task).toMatchObject({ endpointId: 'tasks', generation: 'v2', originalOperation: 'tools/call' });

    // The person quits Toolbelt and opens it again while the task runs: the server is not told to cancel it.
    await h.restart();
    // The server over HTTP kept the task: the new start follows it to its result, and the model is given it.
    const done = await h.settled(chat.id, 20_000);
    const call = (done.messages[1] as AssistantMessage).toolCalls[0]!;
    expect(call).toMatchObject({ status: 'succeeded', result: { ok: true, value: '# Report: tides' } });
    expect(done.messages.at(-1)).toMatchObject({ role: 'assistant', content: 'Here is the report.' });
  });
});

describe('TaskCalls on a 2026 server', () => {
  it('cancels a task that never ends once it outlives its lifetime, says so, and the connection goes on', async () => {
    const url = await startTasksServer();
    const transport = new StreamableHTTPClientTransport(new URL(url));
    const client = new Client({ name: 'test', version: '1' }, { capabilities: {}, versionNegotiation: { mode: 'auto' } });
    await client.connect(transport);
    try {
      const path = modernTaskPath(client, transport, { clientInfo: { name: 'test', version: '1' }, clientCapabilities: {} }, () => Promise.reject(new Error('no questions here')), 10_000);
      expect(path).not.toBeNull();
      const { tools } = await client.listTools();
      const calls = TaskCalls.of(client, 'tasks', () => tools, silentLogger, path);
      let reference: TaskReference | undefined;
      const outlived = calls.call('report', { topic: 'forever' }, { signal: new AbortController().signal, timeoutMs: 10_000, lifetimeMs: 800, onTaskStarted: (made) => (reference = made) });
      await expect(outlived).rejects.toBeInstanceOf(TaskOutlived);
      expect(reference).toMatchObject({ generation: 'v2', taskId: expect.any(String) as unknown });
      const states = await client.callTool({ name: 'task_states', arguments: {} });
      expect(JSON.parse((states.content[0] as { text: string }).text)).toMatchObject({ tasks: { [reference!.taskId]: 'cancelled' } });
    } finally {
      await client.close();
    }
  });
});

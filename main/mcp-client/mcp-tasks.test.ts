import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Client, specTypeSchemas } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { describe, expect, it } from 'vitest';
import type { InvokeResult } from '../../shared/schemas/invocation.js';
import type { CoreEvent } from '../../shared/events.js';
import { cancelAtFirstProgress, expectError, expectOk } from '../../testing/harness/invoke-harness.js';
import { PROJECT_ROOT } from '../../testing/cores/spawned-host.js';
import { startTestCore, type TestCore } from '../../testing/harness/test-core.js';
import { nextQuestion } from '../../testing/harness/live-questions.js';
import { startChatHarness } from '../../testing/harness/chat-harness.js';
import type { AssistantMessage, Chat } from '../../shared/schemas/chat.js';
import { TaskCalls, TaskLost, TaskOutlived, type TaskReference } from './task-call.js';
import { silentLogger } from '../log.js';

// The reference server from npm: its simulate-research-query tool runs only as a task (2025-11-25 tasks), in four
// stages of a second each, and asks which meaning of the topic is meant when told the topic is ambiguous.
const EVERYTHING = { command: process.execPath, args: [path.join(PROJECT_ROOT, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js'), 'stdio'] };
const RESEARCH = 'simulate-research-query';

async function withEverything(): Promise<{ subject: TestCore; invoke: (args: Record<string, unknown>, signal?: AbortSignal) => Promise<InvokeResult>; progress: string[] }> {
  const subject = await startTestCore();
  const server = await subject.call('mcpServers.put', { name: 'everything', config: EVERYTHING });
  const progress: string[] = [];
  subject.core.events.subscribe((event: CoreEvent) => {
    if (event.type === 'tools.progress' && event.progressId === 'research' && event.message) progress.push(event.message);
  });
  const invoke = (args: Record<string, unknown>, signal?: AbortSignal) =>
    subject.core.dispatcher.call('tools.invoke', { bundleID: server.bundleID, toolSlug: RESEARCH, version: 'mcp', args, progressId: 'research' }, { transport: 'internal', ...(signal ? { signal } : {}) }) as Promise<InvokeResult>;
  return { subject, invoke, progress };
}

/** The tasks the server holds, with their status, as its own tasks/list says. */
async function serverTasks(subject: TestCore): Promise<{ taskId: string; status: string }[]> {
  const client = subject.core.mcpServers.connection('everything')!.sdkClient();
  return (await client.request({ method: 'tasks/list', params: {} }, specTypeSchemas.ListTasksResult)).tasks;
}

describe('MCP tools that run as tasks (server-everything, 2025-11-25 tasks)', () => {
  it('is offered, runs as a task whose stages reach the person as progress, and its result arrives at the end', async () => {
    const { subject, invoke, progress } = await withEverything();
    const tools = (await subject.call('tools.list', {})).tools;
    expect(tools.find((tool) => tool.slug === RESEARCH)).toMatchObject({ type: 'mcp', available: true });

    const result = expectOk(await invoke({ topic: 'tides' }));
    expect(String(result.value)).toContain('# Research Report: tides');
    expect(progress).toEqual(expect.arrayContaining(['Gathering sources...', 'Analyzing content...', 'Synthesizing findings...', 'Generating report...']));
    expect(await serverTasks(subject)).toEqual([expect.objectContaining({ status: 'completed' })]);
  });

  it('a task that needs the person asks through the question form and goes on with the answer', async () => {
    const { subject, invoke } = await withEverything();
    const running = invoke({ topic: 'python', ambiguous: true });
    const question = await nextQuestion(subject.core);
    expect(question).toMatchObject({ from: { kind: 'mcp-server', server: 'everything' }, message: expect.stringContaining('could have multiple interpretations') as unknown });
    await subject.call('questions.answer', { id: question.id, answer: { action: 'accept', content: { interpretation: 'snake' } } });
    expect(String(expectOk(await running).value)).toContain('# Research Report: python (snake)');
  });

  it('cancelling the call cancels the task on the server', async () => {
    const { subject, invoke, progress } = await withEverything();
    expectError(await cancelAtFirstProgress(subject.core, (signal) => invoke({ topic: 'glaciers' }, signal)), 'cancelled');
    expect(progress).not.toContain('Generating report...');
    expect(await serverTasks(subject)).toEqual([expect.objectContaining({ status: 'cancelled' })]);
  });
});

describe('a chat waiting on an MCP task when the app stops', () => {
  it('follows the task again at the next start, and goes on with the model when the server no longer has it', async () => {
    const h = await startChatHarness();
    const server = await h.call('mcpServers.put', { name: 'everything', config: { ...EVERYTHING, askFirst: 'never' } });
    await h.provider('script', { kind: 'scripted', displayName: 'Script', script: [{ toolCalls: [{ name: RESEARCH, args: { topic: 'tides' } }] }, { text: 'Carrying on without it.' }] });
    const chat = await h.chat({ providerId: 'script', tools: { mode: 'auto', selected: [{ bundleID: server.bundleID, slug: RESEARCH, version: 'mcp' }] } });
    await h.call('chats.send', { chatId: chat.id, content: 'research tides' });
    await h.until(() => h.events.some(({ event }) => event.type === 'tool-call' && event.call.task !== undefined));
    const task = h.events.flatMap(({ event }) => (event.type === 'tool-call' && event.call.task ? [event.call.task] : []))[0]!;
    expect(task).toMatchObject({ endpointId: 'everything', generation: 'v1', originalOperation: 'tools/call' });

    const file = path.join(h.core.dataDir, 'chats', `${chat.id}.json`);
    // What the app stopping mid-task leaves on disk (kill -9: no cancel reaches anyone): the run and its call going.
    await h.restart(async () => {
      const crashed = JSON.parse(await readFile(file, 'utf8')) as Chat;
      crashed.status = 'running';
      crashed.run = { runId: crashed.lastRun?.runId ?? crashed.run!.runId, kind: 'model', turn: 1, startedAt: crashed.createdAt };
      delete crashed.lastRun;
      const call = (crashed.messages[1] as AssistantMessage).toolCalls[0]!;
      Object.assign(call, { status: 'running', task });
      delete call.result;
      delete call.finishedAt;
      crashed.messages.splice(2);
      await writeFile(file, JSON.stringify(crashed));
    });
    const done = await h.settled(chat.id);
    // The server over stdio restarted with the app and has no such task: said so, and the model is told, not left waiting.
    const call = (done.messages[1] as AssistantMessage).toolCalls[0]!;
    expect(call).toMatchObject({ status: 'failed', result: { error: { code: 'mcp_task_lost' } } });
    expect(call.result?.ok === false && call.result.error.message).toContain('no longer has the task');
    expect(done.messages.at(-1)).toMatchObject({ role: 'assistant', content: 'Carrying on without it.' });
  });
});

describe('TaskCalls', () => {
  it('cancels a task that outlives its lifetime, says so, and leaves the connection usable', async () => {
    const client = new Client({ name: 'test', version: '1' });
    await client.connect(new StdioClientTransport({ ...EVERYTHING, stderr: 'ignore' }));
    try {
      const { tools } = await client.listTools();
      const calls = TaskCalls.of(client, 'everything', () => tools, silentLogger);
      let reference: TaskReference | undefined;
      const outlived = calls.call(RESEARCH, { topic: 'dunes' }, { signal: new AbortController().signal, timeoutMs: 10_000, lifetimeMs: 1_500, onTaskStarted: (made) => (reference = made) });
      await expect(outlived).rejects.toBeInstanceOf(TaskOutlived);
      expect(reference).toMatchObject({ generation: 'v1', originalOperation: 'tools/call', taskId: expect.any(String) as unknown });
      const task = await client.request({ method: 'tasks/get', params: { taskId: reference!.taskId } }, specTypeSchemas.GetTaskResult);
      expect(task.status).toBe('cancelled');
      const echoed = await client.callTool({ name: 'echo', arguments: { message: 'still here' } });
      expect(echoed.content).toEqual([{ type: 'text', text: 'Echo: still here' }]);
    } finally {
      await client.close();
    }
  });

  it('follows a task again from the reference kept for it (as after a restart) to its result, and says when the server has no such task', async () => {
    const client = new Client({ name: 'test', version: '1' });
    await client.connect(new StdioClientTransport({ ...EVERYTHING, stderr: 'ignore' }));
    try {
      const { tools } = await client.listTools();
      const signal = new AbortController().signal;
      let started!: (reference: TaskReference) => void;
      const made = new Promise<TaskReference>((resolve) => (started = resolve));
      const calls = TaskCalls.of(client, 'everything', () => tools, silentLogger);
      const first = calls.call(RESEARCH, { topic: 'comets' }, { signal, timeoutMs: 10_000, onTaskStarted: started });
      const reference = await made;
      // The first follower goes away without cancelling anything (as the app does when it is killed)...
      await calls.detach();
      await expect(first).rejects.toThrow();
      // ...and following it again, given only what the chat kept, reaches the result of the task the server kept running.
      const stages: string[] = [];
      const resumed = await calls.resume(reference, { signal, timeoutMs: 10_000, onProgress: ({ message }) => message && stages.push(message) });
      expect(JSON.stringify(resumed)).toContain('# Research Report: comets');
      expect(stages.at(-1)).toBe('Generating report...');
      // A task the server does not have is said to be lost, not a network failure.
      await expect(calls.resume({ ...(await made), taskId: 'no-such-task' }, { signal, timeoutMs: 10_000 })).rejects.toBeInstanceOf(TaskLost);
    } finally {
      await client.close();
    }
  });
});

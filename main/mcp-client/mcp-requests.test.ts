import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { InvokeResult } from '../../shared/schemas/invocation.js';
import { expectError, expectOk } from '../../testing/harness/invoke-harness.js';
import { PROJECT_ROOT } from '../../testing/cores/spawned-host.js';
import { startTestCore, type TestCore } from '../../testing/harness/test-core.js';
import { tempDirForTest } from '../../testing/harness/test-temp-dir.js';
import { nextQuestion } from '../../testing/harness/live-questions.js';

const EVERYTHING = { command: process.execPath, args: [path.join(PROJECT_ROOT, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js'), 'stdio'] };

function invoker(subject: TestCore, bundleID: string) {
  return (toolSlug: string, args: Record<string, unknown> = {}, signal?: AbortSignal) =>
    subject.core.dispatcher.call('tools.invoke', { bundleID, toolSlug, version: 'mcp', args }, { transport: 'internal', ...(signal ? { signal } : {}) }) as Promise<InvokeResult>;
}

describe('requests from an MCP server while its tool runs', () => {
  it('elicitation: the form reaches the person, a wrong answer is refused at the field, and the answer resumes the call', async () => {
    const subject = await startTestCore();
    const server = await subject.call('mcpServers.put', { name: 'everything', config: EVERYTHING });
    const invoke = invoker(subject, server.bundleID);
    const events: string[] = [];
    subject.core.events.subscribe((event) => events.push(event.type));

    const running = invoke('trigger-elicitation-request');
    const question = await nextQuestion(subject.core);
    expect(question).toMatchObject({ from: { kind: 'mcp-server', server: 'everything' }, message: 'Please provide inputs for the following fields:' });
    expect(Object.keys((question.schema as { properties: object }).properties)).toContain('email');
    expect(events).toContain('questions.changed');

    const wrong = await subject.failure('questions.answer', { id: question.id, answer: { action: 'accept', content: { name: 'Ada', email: 'not an address', integer: 500 } } });
    expect(wrong.code).toBe('invalid_params');
    expect((wrong.details as { issues: { path: string }[] }).issues.map((issue) => issue.path).sort()).toEqual(['/email', '/integer']);

    await subject.call('questions.answer', { id: question.id, answer: { action: 'accept', content: { name: 'Ada Lovelace', email: 'ada@example.org', integer: 7 } } });
    const text = JSON.stringify(expectOk(await running).value);
    expect(text).toContain('Name: Ada Lovelace');
    expect(text).toContain('Email: ada@example.org');
    expect((await subject.call('questions.list', {})).questions).toEqual([]);
    // Answered once: a second answer (another window) is told it is gone.
    expect((await subject.failure('questions.answer', { id: question.id, answer: { action: 'decline' } })).code).toBe('not_found');
  });

  it('elicitation: declining is told to the server, and a cancelled call withdraws its question', async () => {
    const subject = await startTestCore();
    const server = await subject.call('mcpServers.put', { name: 'everything', config: EVERYTHING });
    const invoke = invoker(subject, server.bundleID);

    const declined = invoke('trigger-elicitation-request');
    await subject.call('questions.answer', { id: (await nextQuestion(subject.core)).id, answer: { action: 'decline' } });
    expect(JSON.stringify(expectOk(await declined).value)).toContain('User declined');

    const controller = new AbortController();
    const cancelled = invoke('trigger-elicitation-request', {}, controller.signal);
    await nextQuestion(subject.core);
    controller.abort();
    expectError(await cancelled, 'cancelled');
    expect((await subject.call('questions.list', {})).questions).toEqual([]);
  });

  it('sampling is refused with a sentence the server can pass on', async () => {
    const subject = await startTestCore();
    const server = await subject.call('mcpServers.put', { name: 'sampler', config: { command: process.execPath, args: [path.join(PROJECT_ROOT, 'testing/servers/sampling-mcp-server.mjs')] } });
    const failed = expectError(await invoker(subject, server.bundleID)('summarize'), 'tool_error');
    expect(failed.message).toContain('Toolbelt does not support sampling (sampling/createMessage)');
  });

  it('a server that never answers the handshake fails in time with what to check', async () => {
    const subject = await startTestCore({ mcpConnectTimeoutMs: 500 });
    const script = path.join(await tempDirForTest(), 'silent.mjs');
    await writeFile(script, "process.stderr.write('waiting for input\\n'); process.stdin.resume();\n");
    const started = performance.now();
    const silent = await subject.call('mcpServers.put', { name: 'silent', config: { command: process.execPath, args: [script] } });
    expect(performance.now() - started).toBeLessThan(5_000);
    expect(silent).toMatchObject({ state: 'failed', error: { code: 'mcp_no_answer' } });
    expect(silent.error?.message).toContain('did not answer the MCP handshake within 1 s');
    expect(silent.error?.message).toContain('waiting for input');
  });
});

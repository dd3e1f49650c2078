import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../../testing/cores/spawned-host.js';
import { expectError, expectOk } from '../../testing/harness/invoke-harness.js';
import { nextQuestion } from '../../testing/harness/live-questions.js';
import { startTestCore } from '../../testing/harness/test-core.js';
import { tempDirForTest } from '../../testing/harness/test-temp-dir.js';
import { startModernServer, startModernServerWith } from '../../testing/harness/modern-server.js';

const EVERYTHING = { command: process.execPath, args: [path.join(PROJECT_ROOT, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js'), 'stdio'] };

/** How many times the counted server has started. */
async function startCount(log: string): Promise<number> {
  return (await readFile(log, 'utf8')).split('\n').filter(Boolean).length;
}

/** Resolves when the server's tool count reaches `count`, as the core says its store changed: waits on events, not time. */
function toolCountReaches(subject: Awaited<ReturnType<typeof startTestCore>>, name: string, count: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const check = async () => {
      const { servers } = await subject.call('mcpServers.list', {});
      if (servers.find((server) => server.name === name)?.toolCount !== count) return;
      stop();
      resolve();
    };
    const stop = subject.core.events.subscribe((event) => {
      if (event.type === 'store.changed') check().catch(reject);
    });
  });
}

describe('MCP servers of the 2026-07-28 revision', () => {
  it('a server that refuses the 2025 handshake is added, says its revision, and runs its tool', async () => {
    const url = await startModernServer();
    const { call } = await startTestCore();
    const server = await call('mcpServers.put', { name: 'modern', config: { url } });
    expect(server).toMatchObject({ state: 'connected', protocolVersion: '2026-07-28', serverInfo: { name: 'modern', version: '2.4.0' }, toolCount: 6 });
    expect(expectOk(await call('tools.invoke', { bundleID: server.bundleID, toolSlug: 'echo', version: 'mcp', args: { text: 'from 2026' } })).value).toBe('echo: from 2026');
    // Toolbelt says it shows MCP Apps, as the revision names extensions: a server may offer an app only then.
    const declared = expectOk(await call('tools.invoke', { bundleID: server.bundleID, toolSlug: 'client_extensions', version: 'mcp', args: {} })).value;
    expect(JSON.parse(String(declared))).toEqual({ 'io.modelcontextprotocol/ui': { mimeTypes: ['text/html;profile=mcp-app'] } });
  });

  it('a tool that needs the person mid-call (input_required) asks through Toolbelt’s questions and resumes with the answer', async () => {
    const url = await startModernServer();
    const subject = await startTestCore();
    const server = await subject.call('mcpServers.put', { name: 'modern', config: { url } });
    const running = subject.call('tools.invoke', { bundleID: server.bundleID, toolSlug: 'ask_name', version: 'mcp', args: {} });
    const question = await nextQuestion(subject.core);
    expect(question).toMatchObject({ from: { kind: 'mcp-server', server: 'modern' }, message: 'Your name?' });
    await subject.call('questions.answer', { id: question.id, answer: { action: 'accept', content: { name: 'Ada' } } });
    expect(expectOk(await running).value).toBe('Hello, Ada.');
    expect((await subject.call('questions.list', {})).questions).toEqual([]);
  });

  it('a server that asks for input after every answer is stopped after ten rounds, with a code saying so', async () => {
    const url = await startModernServer();
    const subject = await startTestCore();
    const server = await subject.call('mcpServers.put', { name: 'modern', config: { url } });
    const running = subject.call('tools.invoke', { bundleID: server.bundleID, toolSlug: 'ask_forever', version: 'mcp', args: {} });
    let asked = 0;
    for (;;) {
      const question = await Promise.race([nextQuestion(subject.core), running.then(() => null)]);
      if (!question) break;
      asked++;
      await subject.call('questions.answer', { id: question.id, answer: { action: 'accept', content: {} } });
    }
    expect(expectError(await running, 'mcp_input_rounds').message).toContain('kept asking for more input');
    expect(asked).toBeLessThanOrEqual(11);
    expect((await subject.call('questions.list', {})).questions).toEqual([]);
  });

  it('keeps the tool list for its ttlMs (calls make no list request) and hears a change on subscriptions/listen', async () => {
    const url = await startModernServer();
    const subject = await startTestCore();
    const server = await subject.call('mcpServers.put', { name: 'modern', config: { url } });
    const run = async (toolSlug: string) => expectOk(await subject.call('tools.invoke', { bundleID: server.bundleID, toolSlug, version: 'mcp', args: { text: 'again' } })).value;
    for (let index = 0; index < 3; index++) await run('echo');
    expect(await run('list_count')).toBe('1');
    // The server adds a tool and says so on the stream Toolbelt keeps open: Toolbelt lists once more, and has it.
    const listed = toolCountReaches(subject, 'modern', 7);
    expect(await run('grow')).toBe('extra_1');
    await listed;
    expect(await run('extra_1')).toBe('extra 1');
    expect(await run('list_count')).toBe('2');
  });

  it('caching hints of 0 ms and ten years work; -5, 1e300 or "soon" fail that server with a code, and the others go on', async () => {
    const subject = await startTestCore();
    for (const [name, args] of [['none', ['0']], ['decade', ['315360000000']]] as const) {
      const server = await subject.call('mcpServers.put', { name, config: { url: await startModernServer(...args) } });
      expect(server, JSON.stringify(server.error)).toMatchObject({ state: 'connected', toolCount: 6 });
    }
    // The SDK refuses such a list as a whole (the schema's ttlMs is a whole number of ms, 0 or more): said in a sentence.
    for (const [name, hint, said] of [['negative', '-5', 'ttlMs: Too small'], ['huge', '1e300', 'ttlMs: Too big'], ['word', '"soon"', 'ttlMs: Invalid input']] as const) {
      const server = await subject.call('mcpServers.put', { name, config: { url: await startModernServer('1000', hint) } });
      expect(server).toMatchObject({ state: 'failed', error: { code: 'mcp_bad_list', message: expect.stringContaining(said) as unknown } });
    }
    for (const name of ['none', 'decade']) {
      const { bundleID } = (await subject.call('mcpServers.list', {})).servers.find((server) => server.name === name)!;
      expect(expectOk(await subject.call('tools.invoke', { bundleID, toolSlug: 'echo', version: 'mcp', args: { text: name } })).value).toBe(`echo: ${name}`);
    }
    // Kept for no time: the SDK asks for the list again where it needs it (the echo call's definition); still one start.
    const none = (await subject.call('mcpServers.list', {})).servers.find((server) => server.name === 'none')!;
    const count = Number(expectOk(await subject.call('tools.invoke', { bundleID: none.bundleID, toolSlug: 'list_count', version: 'mcp', args: {} })).value);
    expect(count).toBeGreaterThanOrEqual(1);
  });

  it('a server that says 2026-07-28 but answers a call in the 2025 shape (no resultType) fails that call with a code', async () => {
    const subject = await startTestCore();
    const server = await subject.call('mcpServers.put', { name: 'mixed', config: { url: await startModernServerWith({ OLD_SHAPES: '1' }) } });
    expect(server).toMatchObject({ state: 'connected', protocolVersion: '2026-07-28' });
    const failed = expectError(await subject.call('tools.invoke', { bundleID: server.bundleID, toolSlug: 'echo', version: 'mcp', args: { text: 'x' } }), 'mcp_error');
    expect(failed.message).toContain('answered in a shape MCP does not allow');
    expect(failed.message).toContain('missing required resultType');
  });

  it('a 2025 server is still reached (the probe falls back to the handshake), and is remembered: its next start is not probed', async () => {
    const starts = path.join(await tempDirForTest(), 'starts.log');
    const counted = { command: process.execPath, args: [path.join(PROJECT_ROOT, 'testing/servers/counted-start.mjs'), starts, ...EVERYTHING.args] };
    const first = await startTestCore();
    const server = await first.call('mcpServers.put', { name: 'everything', config: counted });
    expect(server).toMatchObject({ state: 'connected', protocolVersion: '2025-11-25' });
    // The SDK probes a stdio server on a sibling process of its own: two starts the first time.
    expect(await startCount(starts)).toBe(2);
    const again = await first.reopen();
    await again.core.mcpServers.ensureStarted('everything');
    expect((await again.call('mcpServers.list', {})).servers[0]).toMatchObject({ state: 'connected', protocolVersion: '2025-11-25' });
    expect(await startCount(starts)).toBe(3);
  });
});

import { execFile } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { newID } from '../../testing/data/fixtures.js';
import { sharingCore, waitFor } from '../../testing/harness/mcp-share-harness.js';
import { PROJECT_ROOT } from '../../testing/cores/spawned-host.js';

const INSPECTOR = path.join(PROJECT_ROOT, 'node_modules/@modelcontextprotocol/inspector-cli/build/cli.js');
/** The name the inspector gives itself as a client (from its package name). */
const INSPECTOR_CLIENT = 'inspector-cli';

interface InspectorRun {
  code: number;
  /** What the server answered, as the inspector prints it. */
  answer: unknown;
  stderr: string;
}

/**
 * The MCP Inspector's command-line mode (`inspector --cli`), as a person
 * runs it against a server: one method per run, the answer as JSON on stdout.
 */
function inspector(target: string[], method: string[]): Promise<InspectorRun> {
  return new Promise((resolve) => {
    // Its cwd is its own folder: the inspector finds its package.json by a path it checks against the cwd.
    execFile(process.execPath, [INSPECTOR, '--cli', ...target, '--method', ...method], { timeout: 30_000, cwd: path.dirname(INSPECTOR) }, (error, stdout, stderr) => {
      resolve({ code: error ? Number((error as { code?: unknown }).code ?? -1) : 0, answer: stdout.trim() ? JSON.parse(stdout) : null, stderr });
    });
  });
}

const resultText = (answer: unknown) => (answer as { content: { text: string }[] }).content[0]!.text;
const toolNames = (answer: unknown) => (answer as { tools: { name: string }[] }).tools.map((tool) => tool.name).sort();

// Every inspector run starts two Node processes (its launcher and its CLI), and over stdio a third: Toolbelt's.
describe('Toolbelt as an MCP server, driven by the MCP Inspector’s command-line mode', { timeout: 60_000 }, () => {
  it('over Streamable HTTP: lists only the shared tools with their annotations, calls one against its server, and records the call', async () => {
    const { subject, url, token } = await sharingCore();
    // A bundle that is not shared: its tools are not served.
    const privateBundle = newID();
    await subject.call('bundles.put', { bundleID: privateBundle, slug: 'private', displayName: 'Private' });
    await subject.call('tools.put', { bundleID: privateBundle, toolSlug: 'secret-notes', version: 'v1', tool: { displayName: 'Secret notes', type: 'http', argSchema: { type: 'object', properties: {} }, impl: { method: 'GET', urlTemplate: 'http://127.0.0.1:9/notes' } } });
    const http = [url, '--transport', 'http', '--header', `Authorization: Bearer ${token}`];

    const listed = await inspector(http, ['tools/list']);
    expect(listed.code).toBe(0);
    expect(toolNames(listed.answer)).toEqual(['clear-alerts', 'forecast']);
    const tools = (listed.answer as { tools: { name: string; title: string; annotations: Record<string, unknown> }[] }).tools;
    expect(tools.find((tool) => tool.name === 'forecast')).toMatchObject({ title: 'City forecast', annotations: { readOnlyHint: true } });
    expect(tools.find((tool) => tool.name === 'clear-alerts')).toMatchObject({ annotations: { readOnlyHint: false, destructiveHint: true } });

    const called = await inspector(http, ['tools/call', '--tool-name', 'forecast', '--tool-arg', 'city=Paris']);
    expect(called.code).toBe(0);
    expect(JSON.parse(resultText(called.answer))).toEqual({ city: 'Paris', sky: 'clear' });
    const { calls } = await waitFor(() => subject.call('mcpShare.activity', {}), ({ calls }) => calls.length === 1);
    expect(calls[0]).toMatchObject({ client: INSPECTOR_CLIENT, tool: 'forecast', args: expect.stringContaining('Paris') as unknown, ok: true, approval: 'not-needed' });
  });

  it('waits for the person to allow a tool that asks first, then runs it', async () => {
    const { subject, url, token, weather } = await sharingCore();
    const http = [url, '--transport', 'http', '--header', `Authorization: Bearer ${token}`];
    const running = inspector(http, ['tools/call', '--tool-name', 'clear-alerts', '--tool-arg', 'city=Oslo']);
    // Allowed through the operation table, as the approval dialog does.
    const { questions } = await waitFor(() => subject.call('questions.list', {}), ({ questions }) => questions.length === 1);
    expect(questions[0]).toMatchObject({ from: { kind: 'mcp-client', client: INSPECTOR_CLIENT }, approval: { displayName: 'Clear alerts', args: { city: 'Oslo' } } });
    expect(weather.requestsTo('/alerts')).toHaveLength(0);
    await subject.call('questions.answer', { id: questions[0]!.id, answer: { action: 'accept', content: {} } });
    const done = await running;
    expect(done.code).toBe(0);
    expect(JSON.parse(resultText(done.answer))).toEqual({ deleted: true });
    expect(weather.requestsTo('/alerts')).toHaveLength(1);
  });

  it('refuses a wrong token and a foreign Origin with a sentence, and stops serving a bundle once it is no longer shared', async () => {
    const { subject, bundleID, url, token } = await sharingCore();
    const wrongToken = await inspector([url, '--transport', 'http', '--header', 'Authorization: Bearer not-the-token'], ['tools/list']);
    expect(wrongToken.code).toBe(1);
    expect(wrongToken.stderr).toContain('Missing or wrong token. Copy the connection settings again from Toolbelt');
    const foreign = await inspector([url, '--transport', 'http', '--header', `Authorization: Bearer ${token}`, '--header', 'Origin: https://evil.example'], ['tools/list']);
    expect(foreign.code).toBe(1);
    expect(foreign.stderr).toContain('Cross-origin requests are refused.');
    expect(foreign.stderr).not.toContain(token);

    // One method per run, so it hears no list_changed (the SDK client's test does); the next list shows the change.
    await subject.call('mcpShare.shareBundle', { bundleID, shared: false });
    const after = await inspector([url, '--transport', 'http', '--header', `Authorization: Bearer ${token}`], ['tools/list']);
    expect(after.code).toBe(0);
    expect(toolNames(after.answer)).toEqual([]);
  });

  it('over stdio: the mcp command serves the folder a running Toolbelt uses', async () => {
    const { subject } = await sharingCore();
    const stdio = [process.execPath, path.join(PROJECT_ROOT, 'out/main/server.js'), 'mcp', '--data-dir', subject.dataDir];
    const listed = await inspector(stdio, ['tools/list']);
    expect(listed.code).toBe(0);
    expect(toolNames(listed.answer)).toEqual(['clear-alerts', 'forecast']);
    const called = await inspector(stdio, ['tools/call', '--tool-name', 'forecast', '--tool-arg', 'city=Lima']);
    expect(JSON.parse(resultText(called.answer))).toEqual({ city: 'Lima', sky: 'clear' });
    // The app's activity view shows what the other process did.
    const { calls } = await waitFor(() => subject.call('mcpShare.activity', {}), ({ calls }) => calls.length === 1);
    expect(calls[0]).toMatchObject({ client: INSPECTOR_CLIENT, tool: 'forecast', ok: true });
  });
});

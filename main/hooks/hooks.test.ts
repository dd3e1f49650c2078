import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { describe, expect, it, onTestFinished } from 'vitest';
import { PROJECT_ROOT } from '../../testing/cores/spawned-host.js';
import { expectError, expectOk } from '../../testing/harness/invoke-harness.js';
import { sharingCore, waitFor } from '../../testing/harness/mcp-share-harness.js';
import { json, startLoopbackServer } from '../../testing/harness/loopback-server.js';
import { readHookFile } from '../../shared/hooks/hook-files.js';

const NODE = JSON.stringify(process.execPath);
const hookScript = (name: string) => `${NODE} ${JSON.stringify(path.join(PROJECT_ROOT, 'testing/hooks', name))}`;

/** A `.claude/settings.json` as Claude Code's documentation writes one: a guard before the forecast, a log after every tool. */
const CLAUDE_SETTINGS = JSON.stringify({
  permissions: { allow: ['Bash(npm run lint)'] },
  hooks: {
    PreToolUse: [{ matcher: 'forecast|mcp__weather__.*', hooks: [{ type: 'command', command: hookScript('city-guard.mjs'), timeout: 30 }] }],
    PostToolUse: [{ matcher: '*', hooks: [{ type: 'command', command: hookScript('call-log.mjs') }] }],
    PostToolUseFailure: [{ hooks: [{ type: 'command', command: hookScript('call-log.mjs') }] }],
  },
});

async function hookedCore() {
  const shared = await sharingCore();
  // Copied as it is: only the `hooks` block is taken.
  const { hooks } = JSON.parse(CLAUDE_SETTINGS) as { hooks: unknown };
  await shared.subject.call('settings.patch', { hooks } as never);
  const forecast = (city: string) => shared.subject.call('tools.invoke', { bundleID: shared.bundleID, toolSlug: 'forecast', version: 'v1', args: { city } });
  const logged = async () => (await readFile(path.join(shared.subject.dataDir, 'hooks.log'), 'utf8')).trim().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);
  return { ...shared, forecast, logged };
}

describe('hooks before and after every tool call (Claude Code’s format)', () => {
  it('a .claude/settings.json copied as it is: PreToolUse blocks by exit code 2, PostToolUse logs, updatedInput reaches the API', async () => {
    const { forecast, logged, weather } = await hookedCore();
    const blocked = expectError(await forecast('Atlantis'), 'hook_denied');
    expect(blocked.message).toBe('Atlantis is not a city you can ask the weather of.');
    expect(weather.seen.filter((request) => request.url.includes('Atlantis'))).toHaveLength(0);

    const renamed = await forecast('Old Town');
    expect(expectOk(renamed).value).toEqual({ city: 'Tallinn', sky: 'clear' });
    expect(weather.seen.at(-1)?.url).toContain('city=Tallinn');
    expect(renamed).toMatchObject({ hookContext: 'The person calls Tallinn "Old Town".' });
    expect(renamed.hooks?.map((run) => [run.event, run.decision, run.changedInput ?? false])).toEqual([
      ['PreToolUse', 'allow', true],
      ['PostToolUse', 'continue', false],
    ]);

    expect(await logged()).toEqual([{ event: 'PostToolUse', tool: 'forecast', response: { city: 'Tallinn', sky: 'clear' }, error: null, caller: 'person', session: 'toolbelt' }]);
  });

  it('an input rewritten into what the schema refuses is not sent; a hook that hangs, fails or floods is handled', async () => {
    const { subject, forecast, weather } = await hookedCore();
    expectError(await forecast('Nowhere'), 'hook_invalid_input');
    expect(weather.seen.filter((request) => request.url.includes('Nowhere'))).toHaveLength(0);

    const only = (command: string, extra: Record<string, unknown> = {}) => subject.call('settings.patch', { hooks: { PreToolUse: [{ matcher: 'forecast', hooks: [{ type: 'command', command, ...extra }] }] } } as never);
    // Hangs: stopped at its timeout; the call is refused unless the hook says to go on without it.
    await only(`${NODE} -e "setInterval(() => {}, 1000)"`, { timeout: 0.5 });
    expect(expectError(await forecast('Rome'), 'hook_failed').message).toContain('hook_timeout');
    await only(`${NODE} -e "setInterval(() => {}, 1000)"`, { timeout: 0.5, on_failure: 'continue' });
    expect(expectOk(await forecast('Rome')).hooks?.[0]).toMatchObject({ decision: 'error', message: expect.stringContaining('hook_timeout') as unknown });
    // A command that is not there exits 127: an error the person sees, not a block.
    await only('toolbelt-no-such-command-here');
    expect(expectOk(await forecast('Rome')).hooks?.[0]).toMatchObject({ decision: 'error', message: expect.stringContaining('exited with 127') as unknown });
    // 100 MB on stdout: read up to its limit, taken for no decision.
    await only(`${NODE} -e "process.stdout.write('x'.repeat(100 * 1024 * 1024))"`);
    expect(expectOk(await forecast('Rome')).hooks?.[0]).toMatchObject({ decision: 'continue' });
    // JSON that breaks off: said, and ignored.
    await only(`${NODE} -e "process.stdout.write('{\\"hookSpecificOutput\\": {')"`);
    expect(expectOk(await forecast('Rome')).hooks?.[0]).toMatchObject({ decision: 'error', message: expect.stringContaining('hook_output_invalid') as unknown });
    // Exit 2 with nothing on stderr still blocks, with a sentence saying so.
    await only(`${NODE} -e "process.exit(2)"`);
    expect(expectError(await forecast('Rome'), 'hook_denied').message).toContain('gave no reason');
  });

  it('an http hook is POSTed the call and answers as a command prints; one on a host that is not allowed refuses the call', async () => {
    const { subject, forecast, weather } = await hookedCore();
    const guard = await startLoopbackServer({
      '/hook': (request, response) => {
        const call = JSON.parse(request.body.toString("utf8")) as { tool_name: string; tool_input: { city: string } };
        if (call.tool_input.city === 'Sunday') return json(response, 200, { hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: `Not ${call.tool_name} on Sundays.` } });
        return json(response, 200, {});
      },
    });
    const hook = { PreToolUse: [{ matcher: 'forecast', hooks: [{ type: 'http', url: `${guard.base}/hook`, timeout: 5 }] }] };
    await subject.call('settings.patch', { hooks: hook } as never);
    expect(expectError(await forecast('Sunday'), 'hook_failed').message).toContain('is not an allowed host');
    expect(guard.seen).toHaveLength(0);
    await subject.call('settings.patch', { allowedHosts: [weather.host, guard.host] });
    expect(expectError(await forecast('Sunday'), 'hook_denied').message).toBe('Not forecast on Sundays.');
    expect(expectOk(await forecast('Monday')).hooks?.[0]).toMatchObject({ event: 'PreToolUse', decision: 'continue', handler: `${guard.base}/hook` });
  });

  it('a script hook runs a script tool of the person’s in the sandbox, answering as a command prints; one that throws blocks nothing', async () => {
    const { subject, bundleID, forecast } = await hookedCore();
    const script = (slug: string, source: string) =>
      subject.call('tools.put', { bundleID, toolSlug: slug, version: 'v1', tool: { displayName: slug, type: 'script', argSchema: {}, impl: { language: 'javascript', source } } });
    await script(
      'planet-guard',
      // The call's fields are its parameters, by name, as a script tool's arguments are.
      `export default async function (tool_name, tool_input) {
        if (tool_input.city === 'Mars') return { hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: 'Not on ' + tool_name + ' for this planet.' } };
        return {};
      }`,
    );
    await script('broken-guard', 'export default async function () { throw new Error("the guard fell over"); }');
    await subject.call('settings.patch', { hooks: { PreToolUse: [{ matcher: 'forecast', hooks: [{ type: 'script', tool: 'weather/planet-guard' }, { type: 'script', tool: 'broken-guard' }] }] } } as never);
    expect(expectError(await forecast('Mars'), 'hook_denied').message).toBe('Not on forecast for this planet.');
    const went = expectOk(await forecast('Paris'));
    expect(went.hooks?.map((run) => [run.handler, run.decision])).toEqual([
      ['script weather/planet-guard', 'continue'],
      ['script broken-guard', 'error'],
    ]);
    expect(went.hooks?.[1]?.message).toContain('the guard fell over');
  });

  it('refuses, when saved, a matcher the pattern engine cannot run and a file of 10,000 hooks', async () => {
    const { subject } = await sharingCore();
    for (const matcher of ['(?=forecast)', 'fore[cast', '(a+)+\\1']) {
      const failure = await subject.failure('settings.patch', { hooks: { PreToolUse: [{ matcher, hooks: [{ type: 'command', command: 'true' }] }] } });
      expect(failure.code, matcher).toBe('invalid_params');
      expect(failure.message, matcher).toContain('hooks.PreToolUse[0].matcher');
    }
    const flood = Array.from({ length: 10_000 }, () => ({ hooks: [{ type: 'command', command: 'true' }] }));
    expect((await subject.failure('settings.patch', { hooks: { PostToolUse: flood } })).code).toBe('invalid_params');
  });

  it('runs for an MCP client of Toolbelt’s server as for the person, and says which caller it was', async () => {
    const { subject, url, token, logged } = await hookedCore();
    const client = new Client({ name: 'Hooked client', version: '1' });
    await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { Authorization: `Bearer ${token}` } } }));
    onTestFinished(() => client.close());
    const blocked = await client.callTool({ name: 'forecast', arguments: { city: 'Atlantis' } });
    expect(blocked.isError).toBe(true);
    expect(JSON.stringify(blocked.content)).toContain('Atlantis is not a city');
    expect((await client.callTool({ name: 'forecast', arguments: { city: 'Lima' } })).isError).toBeFalsy();
    expect((await logged()).map((line) => [line.event, line.caller])).toEqual([['PostToolUse', 'mcp-client']]);
    // The activity list (newest first) shows what the hooks decided for each client's call.
    const { calls } = await waitFor(
      () => subject.call('mcpShare.activity', {}),
      (activity) => activity.calls.length >= 2,
    );
    expect(calls.map((call) => call.hooks?.map((run) => `${run.event} ${run.decision}`))).toEqual([['PreToolUse continue', 'PostToolUse continue'], ['PreToolUse deny']]);
  });
});

describe('hook files of other apps', () => {
  it('a .cursor/hooks.json, read as the Settings screen reads it, blocks with Cursor’s own answer (permission, agent_message)', async () => {
    const { subject, forecast, weather } = await hookedCore();
    const answer = JSON.stringify({ permission: 'deny', user_message: 'Blocked by policy.', agent_message: 'Forecasts are off today.' });
    const cursorFile = { version: 1, hooks: { preToolUse: [{ command: `${NODE} -e ${JSON.stringify(`process.stdout.write(${JSON.stringify(answer)})`)}`, matcher: 'forecast' }], afterFileEdit: [{ command: 'true' }] } };
    const read = readHookFile(cursorFile, process.platform);
    expect(read).toMatchObject({ kind: 'cursor', skipped: [{ event: 'afterFileEdit' }] });
    await subject.call('settings.patch', { hooks: read.hooks });
    const blocked = expectError(await forecast('Oslo'), 'hook_denied');
    expect(blocked.message).toBe('Forecasts are off today.');
    expect(weather.seen.filter((request) => request.url.includes('Oslo'))).toHaveLength(0);
  });
});

import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../../testing/cores/spawned-host.js';
import { startChatHarness } from '../../testing/harness/chat-harness.js';
import type { FakeModelServer } from '../../testing/servers/fake-model-server.js';
import { openAiTextReply, openAiToolCallReply, startFakeOpenAi } from '../../testing/servers/fake-openai.js';
import { startTestCore } from '../../testing/harness/test-core.js';
import { mcpBundleID } from '../mcp-client/identity.js';

const servers: FakeModelServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

const logHook = `${JSON.stringify(process.execPath)} ${JSON.stringify(path.join(PROJECT_ROOT, 'testing/hooks/call-log.mjs'))}`;

/**
 * One table: each caller calls the same HTTP tool, and the same PostToolUse hook sees each call, with who made it.
 * (MCP clients of Toolbelt's server: hooks.test.ts; MCP Apps below.)
 */
describe('hooks run for every caller', () => {
  it('the person, a chat’s model, an agent, a script and a recipe: each call passes the hooks, which say who called', async () => {
    const h = await startChatHarness();
    const note = `${JSON.stringify(process.execPath)} -e "process.stdout.write(JSON.stringify({ hookSpecificOutput: { hookEventName: 'PostToolUse', additionalContext: 'Checked by a hook.' } }))"`;
    await h.call('settings.patch', { hooks: { PostToolUse: [{ matcher: 'weather', hooks: [{ type: 'command', command: logHook }, { type: 'command', command: note }] }] } });
    const weather = h.tool('weather');
    const put = (slug: string, tool: Record<string, unknown>) => h.call('tools.put', { bundleID: h.bundleID, toolSlug: slug, version: 'v1', tool: { displayName: slug, ...tool } as never });
    const cityArgs = { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] };

    // The person.
    await h.call('tools.invoke', { bundleID: h.bundleID, toolSlug: 'weather', version: 'v1', args: { city: 'Oslo' } });
    // A chat's model, which reads what the hook added after the result.
    const model = await startFakeOpenAi([openAiToolCallReply([{ id: 'c0', name: 'weather', args: ['{"city":"Rome"}'] }]), openAiTextReply(['Done.'])]);
    servers.push(model);
    await h.provider('chat-model', { kind: 'openai', displayName: 'Chat model', baseURL: `${model.url}/v1`, apiKey: 'sk-chat' });
    const chat = await h.chat({ providerId: 'chat-model', tools: { mode: 'auto', selected: [weather] } });
    await h.call('chats.send', { chatId: chat.id, content: 'Weather in Rome' });
    await h.settled(chat.id);
    expect(JSON.stringify(model.requests[1]!.body)).toContain("[From the person's hooks: Checked by a hook.]");
    // An agent's model.
    const inner = await startFakeOpenAi([openAiToolCallReply([{ id: 'c1', name: 'weather', args: ['{"city":"Lima"}'] }]), openAiTextReply(['Lima is warm.'])]);
    servers.push(inner);
    await h.provider('inner', { kind: 'openai', displayName: 'Inner', baseURL: `${inner.url}/v1`, apiKey: 'sk-inner' });
    await put('researcher', { type: 'agent', argSchema: { type: 'object', properties: { task: { type: 'string' } }, required: ['task'] }, impl: { providerId: 'inner', model: 'gpt-4o-mini', tools: [weather], maxTurns: 3 } });
    await h.call('tools.invoke', { bundleID: h.bundleID, toolSlug: 'researcher', version: 'v1', args: { task: 'Lima?' } });
    // A script's tools.call.
    await put('scripted', { type: 'script', argSchema: {}, impl: { language: 'javascript', source: 'export default async function () { return await tools.call("weather", { city: "Kyiv" }); }' } });
    await h.call('tools.invoke', { bundleID: h.bundleID, toolSlug: 'scripted', version: 'v1', args: {} });
    // A recipe's step.
    await put('trip', { type: 'recipe', argSchema: cityArgs, impl: { steps: [{ id: 'w', tool: { bundleID: h.bundleID, slug: 'weather' }, args: { city: '${inputs.city}' } }], output: '${steps.w.result.temp}' } });
    await h.call('tools.invoke', { bundleID: h.bundleID, toolSlug: 'trip', version: 'v1', args: { city: 'Cairo' } });
    // A recipe a chat's model calls: its step's call belongs to that chat, as the chat's own calls do.
    const planner = await startFakeOpenAi([openAiToolCallReply([{ id: 'c2', name: 'trip', args: ['{"city":"Baku"}'] }]), openAiTextReply(['Planned.'])]);
    servers.push(planner);
    await h.provider('planner', { kind: 'openai', displayName: 'Planner', baseURL: `${planner.url}/v1`, apiKey: 'sk-plan' });
    const trip = await h.chat({ providerId: 'planner', tools: { mode: 'auto', selected: [h.tool('trip')] } });
    await h.call('chats.send', { chatId: trip.id, content: 'Plan Baku' });
    await h.settled(trip.id);

    const lines = (await readFile(path.join(h.dataDir, 'hooks.log'), 'utf8')).trim().split('\n').map((line) => JSON.parse(line) as { caller: string; response: { city: string }; session: string });
    // session_id is the chat a call belongs to, however deep; calls outside any chat are Toolbelt's own session.
    expect(lines.map((line) => [line.caller, line.response.city, line.session])).toEqual([
      ['person', 'Oslo', 'toolbelt'],
      ['chat-model', 'Rome', chat.id],
      ['agent', 'Lima', 'toolbelt'],
      ['script', 'Kyiv', 'toolbelt'],
      ['recipe', 'Cairo', 'toolbelt'],
      ['recipe', 'Baku', trip.id],
    ]);
  });
});

describe('hooks run for an MCP App', () => {
  it('a call an app makes to its own server’s tool passes the hooks, which say it came from an MCP App', async () => {
    // The published example app server of the MCP Apps SDK, over stdio: get-time, whose UI calls get-time.
    const BASIC_APP = { command: process.execPath, args: [path.join(PROJECT_ROOT, 'node_modules/@modelcontextprotocol/server-basic-vanillajs/dist/index.js'), '--stdio'] };
    const { call, dataDir } = await startTestCore({ windowOpen: () => true, appDocuments: { keep: () => 'd'.repeat(64) } });
    // A hook that allows the call (so no one is asked) and logs it.
    const allow = `${JSON.stringify(process.execPath)} -e "process.stdout.write(JSON.stringify({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'allow' } }))"`;
    await call('settings.patch', { hooks: { PreToolUse: [{ matcher: 'mcp__clock__.*', hooks: [{ type: 'command', command: allow }] }], PostToolUse: [{ matcher: 'mcp__clock__get-time', hooks: [{ type: 'command', command: logHook }] }] } });
    await call('mcpServers.put', { name: 'clock', config: BASIC_APP });
    const result = await call('mcpApps.callTool', { bundleID: mcpBundleID('clock'), toolSlug: 'get-time', name: 'get-time', arguments: {} });
    expect(result.isError).toBeUndefined();
    const [line] = (await readFile(path.join(dataDir, 'hooks.log'), 'utf8')).trim().split('\n').map((text) => JSON.parse(text) as { caller: string; tool: string });
    expect(line).toMatchObject({ caller: 'mcp-app', tool: 'mcp__clock__get-time' });
  });
});

import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { startChatHarness } from '../../testing/harness/chat-harness.js';

/**
 * One tool in each state a person meets, and every caller that asks "can it
 * run": the invoker (tools.invoke), a palette run in a chat (chats.runTool),
 * the chat's offer to the model, and the tool list. They must give the same
 * answer, in the same words, with the same code.
 */
describe('the tool resolver', () => {
  it('gives every caller one answer per state, with a stable code and a sentence that says what to do', async () => {
    const h = await startChatHarness();
    const { call, failure, core } = h;
    await h.provider('script', { kind: 'scripted', displayName: 'Script', script: [{ toolCalls: [{ name: 'switched-off' }, { name: 'ghost-function' }] }, { text: 'Ok.' }] });
    const put = (toolSlug: string, tool: Record<string, unknown>) =>
      call('tools.put', { bundleID: h.bundleID, toolSlug, version: 'v1', tool: { displayName: toolSlug, type: 'http', argSchema: { type: 'object' }, impl: { method: 'GET', urlTemplate: `${h.server.base}/weather` }, ...tool } });
    await put('switched-off', { isEnabled: false });
    await put('ghost-function', { type: 'local', impl: { func: 'nowhere.atAll' } });
    const broken = await put('broken-file', {});
    await writeFile(path.join(core.dataDir, 'bundles', h.bundleID, 'tools', `${broken.toolID}.json`), '{ "half": ');
    await core.store.refreshBundle(h.bundleID);

    const states = [
      { slug: 'switched-off', code: 'tool_disabled', why: 'it is switched off', message: 'switched-off is switched off. Switch it on to run it.' },
      { slug: 'ghost-function', code: 'tool_unavailable', why: 'the local function "nowhere.atAll" is not part of this version of Toolbelt', message: 'ghost-function cannot run: the local function "nowhere.atAll" is not part of this version of Toolbelt.' },
    ];
    const selected = [...states.map((state) => h.tool(state.slug)), h.tool('weather')];
    const chat = await h.chat({ providerId: 'script', tools: { mode: 'auto', selected } });
    for (const state of states) {
      const ref = { bundleID: h.bundleID, toolSlug: state.slug, version: 'v1' };
      const invoked = await failure('tools.invoke', ref);
      expect([invoked.code, invoked.message], state.slug).toEqual([state.code, state.message]);
      const ran = await failure('chats.runTool', { chatId: chat.id, bundleID: h.bundleID, slug: state.slug, version: 'v1', args: {} });
      expect([ran.code, ran.message], state.slug).toEqual([state.code, state.message]);
      const readiness = await core.resolver.resolve({ bundleID: h.bundleID, slug: state.slug, version: 'v1' });
      expect(readiness).toEqual({ ok: false, code: state.code, why: state.why, message: state.message });
    }
    // The model is not offered them, and a call it makes anyway is answered with the same reason.
    await call('chats.send', { chatId: chat.id, content: 'go' });
    const answered = await h.settled(chat.id);
    const calls = answered.messages.flatMap((message) => (message.role === 'assistant' ? message.toolCalls : []));
    expect(calls.map((toolCall) => [toolCall.name, toolCall.result && !toolCall.result.ok ? toolCall.result.error.message : null])).toEqual(
      states.map((state) => [state.slug, `The tool "${state.slug}" cannot be used now: ${state.why}.`]),
    );
    // The list says the same of what no switch can fix.
    const listed = (await call('tools.list', { bundleIDs: [h.bundleID], includeDisabled: true })).tools;
    expect(listed.find((tool) => tool.slug === 'ghost-function')).toMatchObject({ available: false, unavailableReason: 'The local function "nowhere.atAll" is not part of this version of Toolbelt.' });
    expect(listed.find((tool) => tool.slug === 'switched-off')).toMatchObject({ available: true, isEnabled: false, blockedReason: states[0]!.message });
    expect(listed.find((tool) => tool.slug === 'ghost-function')).toMatchObject({ blockedReason: states[1]!.message });
    expect(listed.find((tool) => tool.slug === 'weather')).not.toHaveProperty('blockedReason');
    expect(listed.find((tool) => tool.status === 'invalid')).toMatchObject({ available: false, unavailableReason: expect.stringMatching(/^Its file is invalid: the file is not valid JSON/) as unknown });
    const invalid = await failure('tools.invoke', { bundleID: h.bundleID, toolSlug: 'weather', version: 'v1', args: { city: 1 } });
    expect(invalid.code).toBe('invalid_args');

    // A bundle switched off: its tools are off, said the same way everywhere.
    await call('bundles.patch', { bundleID: h.bundleID, isEnabled: false });
    const bundleOff = await failure('tools.invoke', { bundleID: h.bundleID, toolSlug: 'weather', version: 'v1', args: { city: 'Oslo' } });
    expect([bundleOff.code, bundleOff.message]).toEqual(['tool_disabled', 'Weather is switched off with its bundle. Switch the bundle on to run it.']);
    const ranOff = await failure('chats.runTool', { chatId: chat.id, bundleID: h.bundleID, slug: 'weather', version: 'v1', args: { city: 'Oslo' } });
    expect(ranOff.message).toBe(bundleOff.message);
  });
});

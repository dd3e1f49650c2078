import { describe, expect, it } from 'vitest';
import type { Caller } from '../consent/consent.js';
import { expectError, expectOk, invokeHarness } from '../../testing/harness/invoke-harness.js';
import { startLoopbackServer, json } from '../../testing/harness/loopback-server.js';
import { nextQuestion } from '../../testing/harness/live-questions.js';

// The door is in the invoker, not beside it: whoever holds the invoker and forgets to ask is refused, and the
// request never leaves. Each case runs a real HTTP tool against a loopback server that counts what reaches it.

const signal = () => new AbortController().signal;

describe('the invoker runs a call only through its door', () => {
  async function toolThatAsks() {
    const api = await startLoopbackServer({ '/delete': (_request, response) => json(response, 200, { deleted: true }) });
    // A window is open to ask in.
    const subject = await invokeHarness([api.host], { windowOpen: () => true });
    await subject.putHttpTool('delete-repo', { method: 'POST', urlTemplate: `${api.base}/delete` }, { requiresApproval: true });
    const record = await subject.core.store.requireTool(subject.bundleID, 'delete-repo', 'v1');
    return { api, record, core: subject.core };
  }

  it("refuses a chat model's call that needs a yes and brings none, and nothing is sent", async () => {
    const { api, record, core } = await toolThatAsks();
    const caller: Caller = { kind: 'chat-model', alwaysAllowed: [], manual: false };
    const error = expectError(await core.invoker.invoke(record, { args: {} }, { caller, signal: signal() }), 'approval_required');
    expect(error.message).toContain('needs the person');
    expect(api.seen).toEqual([]);
    // With the person's yes (the chat's dialog) it runs.
    expectOk(await core.invoker.invoke(record, { args: {} }, { caller, approved: true, signal: signal() }));
    expect(api.seen).toHaveLength(1);
  });

  it('refuses a caller wired without saying who it is, whatever the tool', async () => {
    const { api, record, core } = await toolThatAsks();
    const unnamed = { signal: signal() } as unknown as Parameters<typeof core.invoker.invoke>[2];
    expectError(await core.invoker.invoke(record, { args: {} }, unnamed), 'approval_required');
    expect(api.seen).toEqual([]);
  });

  it("asks the person for a live caller's call in the window, and runs it only once they allow", async () => {
    const { api, record, core } = await toolThatAsks();
    const running = core.invoker.invoke(record, { args: {} }, { caller: { kind: 'mcp-client', client: 'Claude Desktop' }, signal: signal() });
    const question = await nextQuestion(core);
    expect(question.message).toContain('Claude Desktop wants to run delete-repo');
    expect(api.seen).toEqual([]);
    await core.dispatcher.call('questions.answer', { id: question.id, answer: { action: 'accept', content: {} } }, { transport: 'internal' });
    expectOk(await running);
    expect(api.seen).toHaveLength(1);
  });
});

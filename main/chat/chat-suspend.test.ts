import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { AssistantMessage, Chat } from '../../shared/schemas/chat.js';
import { startChatHarness } from '../../testing/harness/chat-harness.js';
import { tempDirForTest } from '../../testing/harness/test-temp-dir.js';

const assistants = (chat: Chat) => chat.messages.filter((message): message is AssistantMessage => message.role === 'assistant');

/** What the scripted model saw of a call's result on its next turn is in the chat; this reads the call. */
const callIn = (chat: Chat, id: string) => chat.messages.flatMap((message) => (message.role === 'assistant' ? message.toolCalls : [])).find((call) => call.id === id)!;

async function scriptedHarness(script: { text?: string; toolCalls?: { name: string; args?: Record<string, unknown> }[] }[]) {
  const h = await startChatHarness();
  await h.provider('script', { kind: 'scripted', displayName: 'Script', script });
  return h;
}

describe('approvals', () => {
  const script = [{ text: 'Checking.', toolCalls: [{ name: 'weather', args: { city: 'Oslo' } }] }, { text: 'Done.' }];

  it('in manual mode, every call the model makes waits: one run with edited arguments, one rejected (across a restart), and the model hears both only when both are settled; the person’s own palette runs do not wait', async () => {
    const h = await scriptedHarness([{ toolCalls: [{ name: 'weather', args: { city: 'Oslo' } }, { name: 'weather', args: { city: 'Rome' } }] }, { text: 'Done.' }]);
    const chat = await h.chat({ providerId: 'script', toolRuns: 'manual', tools: { mode: 'auto', selected: [h.tool('weather')] } });
    expect(chat.toolRuns).toBe('manual');
    await h.call('chats.send', { chatId: chat.id, content: 'weather?' });
    const waiting = await h.settled(chat.id);
    expect(waiting.status).toBe('awaiting_approval');
    expect(waiting.pending.map((item) => [item.callId, item.kind === 'approval' ? item.reason : ''])).toEqual([
      ['call_0_0', expect.stringContaining('manual mode') as unknown],
      ['call_0_1', expect.stringContaining('manual mode') as unknown],
    ]);
    // Why, as a code too: the window says it in the person's language.
    expect(waiting.pending.map((item) => item.approvalBy)).toEqual(['manual', 'manual']);
    await h.call('chats.approve', { chatId: chat.id, callId: 'call_0_0', decision: 'allow', args: { city: 'Bergen' } });
    const half = await h.settled(chat.id);
    // One settled, one still waiting: the model has not been asked again.
    expect(assistants(half)).toHaveLength(1);
    expect(half.status).toBe('awaiting_approval');
    // The app restarts in between: the other call still waits, and the decision made before is kept.
    await h.restart();
    const reopened = await h.settled(chat.id);
    expect(reopened.status).toBe('awaiting_approval');
    expect(reopened.pending.map((item) => item.callId)).toEqual(['call_0_1']);
    expect(callIn(reopened, 'call_0_0')).toMatchObject({ status: 'succeeded', args: { city: 'Bergen' } });
    await h.call('chats.approve', { chatId: chat.id, callId: 'call_0_1', decision: 'deny', message: 'not Rome' });
    const done = await h.settled(chat.id);
    expect(done.status).toBe('idle');
    expect(h.server.requestsTo('/weather').map((request) => new URL(request.url, 'http://x').searchParams.get('city'))).toEqual(['Bergen']);
    expect(callIn(done, 'call_0_0')).toMatchObject({ status: 'succeeded', args: { city: 'Bergen' } });
    expect(callIn(done, 'call_0_1')).toMatchObject({ status: 'denied' });
    expect(assistants(done).at(-1)!.content).toBe('Done.');

    // A run the person starts from the palette is their own decision.
    await h.call('chats.runTool', { chatId: chat.id, ...h.tool('weather'), args: { city: 'Paris' } });
    const ran = await h.settled(chat.id);
    expect(ran.status).toBe('idle');
    expect(h.server.requestsTo('/weather')).toHaveLength(2);
  });

  it('suspends on a tool that asks first, shows the request with secrets masked, and runs it once allowed', async () => {
    const h = await scriptedHarness(script);
    const chat = await h.chat({ providerId: 'script', tools: { mode: 'auto', selected: [h.tool('weather', { requiresApproval: true })] } });
    await h.call('chats.send', { chatId: chat.id, content: 'weather?' });
    const waiting = await h.settled(chat.id);

    expect(waiting.status).toBe('awaiting_approval');
    expect(waiting.pending).toEqual([
      expect.objectContaining({
        callId: 'call_0_0',
        kind: 'approval',
        tool: expect.objectContaining({ name: 'weather', displayName: 'Weather', bundleName: 'Test tools' }) as unknown,
        args: { city: 'Oslo' },
        reason: 'This chat asks before running this tool.',
        preview: { method: 'GET', url: `${h.server.base}/weather?city=Oslo`, headers: { authorization: '•••' } },
      }) as unknown,
    ]);
    expect(h.streamOf(chat.id)).toContainEqual(expect.objectContaining({ type: 'approval-requested' }) as unknown);
    expect(h.server.requestsTo('/weather')).toHaveLength(0);
    expect(JSON.stringify(waiting)).not.toContain('tok-very-secret-42');

    await h.call('chats.approve', { chatId: chat.id, callId: 'call_0_0', decision: 'allow' });
    const done = await h.settled(chat.id);
    expect(done.status).toBe('idle');
    expect(done.pending).toEqual([]);
    expect(callIn(done, 'call_0_0')).toMatchObject({ status: 'succeeded', result: { ok: true, value: { city: 'Oslo' } } });
    expect(assistants(done)[1]!.content).toBe('Done.');
    expect(h.server.requestsTo('/weather')).toHaveLength(1);
    // Answered once: the same approval again is refused.
    const again = await h.failure('chats.approve', { chatId: chat.id, callId: 'call_0_0', decision: 'allow' });
    expect(again.code).toBe('conflict');
  });

  it('runs edited arguments after checking them again, and keeps the call waiting on invalid ones', async () => {
    const h = await scriptedHarness(script);
    const chat = await h.chat({ providerId: 'script', tools: { mode: 'auto', selected: [h.tool('weather', { requiresApproval: true })] } });
    await h.call('chats.send', { chatId: chat.id, content: 'weather?' });
    await h.settled(chat.id);

    const invalid = await h.failure('chats.approve', { chatId: chat.id, callId: 'call_0_0', decision: 'allow', args: { city: 'X', extra: 1 } });
    expect(invalid.code).toBe('invalid_args');
    expect((await h.call('chats.get', { chatId: chat.id })).status).toBe('awaiting_approval');

    await h.call('chats.approve', { chatId: chat.id, callId: 'call_0_0', decision: 'allow', args: { city: 'Bergen' } });
    const done = await h.settled(chat.id);
    expect(callIn(done, 'call_0_0')).toMatchObject({ args: { city: 'Bergen' }, status: 'succeeded', note: expect.stringContaining('edited') as unknown });
    expect(h.server.requestsTo('/weather')[0]!.url).toBe('/weather?city=Bergen');
  });

  it('gives a denied call an error result the model reads, with the reason', async () => {
    const h = await scriptedHarness(script);
    const chat = await h.chat({ providerId: 'script', tools: { mode: 'auto', selected: [h.tool('weather', { requiresApproval: true })] } });
    await h.call('chats.send', { chatId: chat.id, content: 'weather?' });
    await h.settled(chat.id);
    await h.call('chats.approve', { chatId: chat.id, callId: 'call_0_0', decision: 'deny', message: 'not from work' });
    const done = await h.settled(chat.id);
    expect(callIn(done, 'call_0_0')).toMatchObject({ status: 'denied', note: 'not from work', result: { ok: false, error: { code: 'denied' } } });
    expect(h.server.requestsTo('/weather')).toHaveLength(0);
    expect(done.lastRun?.reason).toBe('stop');
  });

  it('asks once per tool after "always allow in this chat", and the built-in file reader asks by default', async () => {
    const h = await scriptedHarness([
      { toolCalls: [{ name: 'weather', args: { city: 'Oslo' } }] },
      { toolCalls: [{ name: 'weather', args: { city: 'Rome' } }, { name: 'read-text-file', args: { path: '/etc/hostname' } }] },
      { text: 'ok' },
    ]);
    const chat = await h.chat({
      providerId: 'script',
      tools: { mode: 'auto', selected: [h.tool('weather', { requiresApproval: true }), h.coreTool('read-text-file')] },
    });
    await h.call('chats.send', { chatId: chat.id, content: 'go' });
    await h.settled(chat.id);
    await h.call('chats.approve', { chatId: chat.id, callId: 'call_0_0', decision: 'allow_always' });
    const second = await h.settled(chat.id);
    // Rome ran without asking; the file reader waits, because its definition asks.
    expect(callIn(second, 'call_1_0').status).toBe('succeeded');
    expect(second.pending).toEqual([expect.objectContaining({ callId: 'call_1_1', reason: 'The tool asks for approval before every call.' }) as unknown]);
    await h.call('chats.approve', { chatId: chat.id, callId: 'call_1_1', decision: 'deny' });
    expect((await h.settled(chat.id)).status).toBe('idle');
  });
});

describe('ask-user', () => {
  it('suspends on the question and makes the answer the tool result', async () => {
    const h = await scriptedHarness([
      { toolCalls: [{ name: 'ask-user', args: { question: 'Which city?', choices: ['Oslo', 'Rome'] } }] },
      { text: 'Thanks.' },
    ]);
    const chat = await h.chat({ providerId: 'script', tools: { mode: 'auto', selected: [h.coreTool('ask-user')] } });
    await h.call('chats.send', { chatId: chat.id, content: 'help me pick' });
    const waiting = await h.settled(chat.id);
    expect(waiting.status).toBe('awaiting_user');
    expect(waiting.pending).toEqual([expect.objectContaining({ kind: 'question', question: 'Which city?', choices: ['Oslo', 'Rome'] }) as unknown]);
    expect(h.streamOf(chat.id)).toContainEqual(expect.objectContaining({ type: 'ask-user' }) as unknown);

    const wrong = await h.failure('chats.approve', { chatId: chat.id, callId: 'call_0_0', decision: 'allow' });
    expect(wrong.code).toBe('conflict');
    await h.call('chats.answer', { chatId: chat.id, callId: 'call_0_0', answer: 'Rome' });
    const done = await h.settled(chat.id);
    expect(callIn(done, 'call_0_0')).toMatchObject({ status: 'succeeded', result: { ok: true, value: { answer: 'Rome' } } });
    expect(assistants(done)[1]!.content).toBe('Thanks.');
  });
});

describe('surviving a restart', () => {
  it('resumes a suspended run after the core restarts, without running a finished call again', async () => {
    const h = await scriptedHarness([
      { toolCalls: [{ name: 'weather', args: { city: 'Oslo' } }, { name: 'guarded', args: { city: 'Rome' } }] },
      { text: 'Both done.' },
    ]);
    const suspended = await h.chat({
      providerId: 'script',
      tools: { mode: 'auto', selected: [h.tool('weather'), h.tool('météo', { as: 'guarded', requiresApproval: true })] },
    });
    await h.call('chats.send', { chatId: suspended.id, content: 'both' });
    const before = await h.settled(suspended.id);
    expect(before.status).toBe('awaiting_approval');
    expect(callIn(before, 'call_0_0').status).toBe('succeeded');
    expect(h.server.requestsTo('/weather')).toHaveLength(1);

    await h.restart();
    const after = await h.call('chats.get', { chatId: suspended.id });
    expect(after.status).toBe('awaiting_approval');
    expect(after.pending.map((item) => item.callId)).toEqual(['call_0_1']);

    await h.call('chats.approve', { chatId: suspended.id, callId: 'call_0_1', decision: 'allow' });
    const done = await h.settled(suspended.id);
    expect(done.status).toBe('idle');
    expect(assistants(done)[1]!.content).toBe('Both done.');
    // Oslo ran before the restart, Rome after: two requests, never three.
    expect(h.server.requestsTo('/weather').map((request) => request.url)).toEqual(['/weather?city=Oslo', '/weather?city=Rome']);
  });

  it('marks a run that was going when the app stopped as interrupted, never re-running its tool', async () => {
    const h = await scriptedHarness([{ text: 'hello' }]);
    const chat = await h.chat({ providerId: 'script', tools: { mode: 'auto', selected: [h.tool('weather')] } });
    await h.call('chats.send', { chatId: chat.id, content: 'hi' });
    await h.settled(chat.id);
    const file = path.join(h.core.dataDir, 'chats', `${chat.id}.json`);
    // What a crash mid-call leaves on disk: a running chat with a running call.
    await h.restart(async () => {
      const crashed = JSON.parse(await readFile(file, 'utf8')) as Chat;
      crashed.status = 'running';
      crashed.run = { runId: crashed.lastRun!.runId, kind: 'model', turn: 1, startedAt: crashed.createdAt };
      (crashed.messages[1] as AssistantMessage).toolCalls.push({
        id: 'c9',
        name: 'weather',
        args: { city: 'Oslo' },
        status: 'running',
        tool: { bundleID: h.bundleID, slug: 'weather', version: 'v1', displayName: 'Weather', bundleName: 'Test tools' },
      });
      await writeFile(file, JSON.stringify(crashed));
    });
    const recovered = await h.call('chats.get', { chatId: chat.id });
    expect(recovered.status).toBe('error');
    expect(recovered.lastRun?.error).toMatchObject({ code: 'interrupted', message: expect.stringContaining('Send a message to continue') as unknown });
    expect(callIn(recovered, 'c9')).toMatchObject({ status: 'failed', result: { error: { code: 'interrupted' } } });
    expect(h.server.requestsTo('/weather')).toHaveLength(0);
  });
});

describe('cancel', () => {
  it('stops a tool in the middle of its call and leaves a history every provider accepts', async () => {
    const h = await scriptedHarness([{ toolCalls: [{ name: 'slow', args: { city: 'Oslo' } }, { name: 'weather', args: { city: 'Rome' } }] }, { text: 'after' }]);
    const chat = await h.chat({ providerId: 'script', tools: { mode: 'auto', selected: [h.tool('slow'), h.tool('weather', { requiresApproval: true })] } });
    await h.call('chats.send', { chatId: chat.id, content: 'go' });
    await h.until(() => h.server.requestsTo('/slow').length === 1);

    const cancelled = await h.call('chats.cancel', { chatId: chat.id });
    expect(cancelled.status).toBe('idle');
    expect(cancelled.pending).toEqual([]);
    const calls = assistants(cancelled)[0]!.toolCalls;
    expect(calls.map((call) => call.status)).toEqual(['cancelled', 'cancelled']);
    expect(calls.every((call) => call.result && !call.result.ok && call.result.error.code === 'cancelled')).toBe(true);

    await h.call('chats.send', { chatId: chat.id, content: 'again' });
    expect((await h.settled(chat.id)).status).toBe('idle');
  });

  it('cancels a run that waits for an approval', async () => {
    const h = await scriptedHarness([{ toolCalls: [{ name: 'weather', args: { city: 'Oslo' } }] }]);
    const chat = await h.chat({ providerId: 'script', tools: { mode: 'auto', selected: [h.tool('weather', { requiresApproval: true })] } });
    await h.call('chats.send', { chatId: chat.id, content: 'go' });
    await h.settled(chat.id);
    const cancelled = await h.call('chats.cancel', { chatId: chat.id });
    expect(cancelled).toMatchObject({ status: 'idle', pending: [], lastRun: { reason: 'cancelled' } });
    expect(callIn(cancelled, 'call_0_0').status).toBe('cancelled');
  });
});

describe('tools run from the palette', () => {
  it('keeps the call and result in the chat and shares it with the model on the next turn when asked', async () => {
    const h = await scriptedHarness([{ text: 'Noted.' }]);
    const chat = await h.chat({ providerId: 'script' });
    const { messageId, callId } = await h.call('chats.runTool', { chatId: chat.id, ...h.tool('weather'), args: { city: 'Oslo' } });
    const ran = await h.settled(chat.id);
    const message = ran.messages.find((entry) => entry.id === messageId);
    expect(message).toMatchObject({ role: 'tool-run', shareWithModel: true, call: { id: callId, status: 'succeeded', result: { ok: true, value: { city: 'Oslo', temp: 21 } } } });
    expect(ran.lastRun?.reason).toBe('stop');
    expect(assistants(ran)).toHaveLength(0);

    const invalid = await h.failure('chats.runTool', { chatId: chat.id, ...h.tool('weather'), args: {} });
    expect(invalid.code).toBe('invalid_args');
    await h.call('chats.shareToolRun', { chatId: chat.id, messageId, shareWithModel: false });
    expect((await h.call('chats.get', { chatId: chat.id })).messages[0]).toMatchObject({ shareWithModel: false });
  });

  it('never asks the person to approve their own run, even of a tool that asks before every call', async () => {
    const h = await scriptedHarness([]);
    const folder = await tempDirForTest();
    await writeFile(path.join(folder, 'note.txt'), 'from the palette');
    await h.call('settings.patch', { readableFolders: [folder] });
    const chat = await h.chat({ providerId: 'script' });
    await h.call('chats.runTool', { chatId: chat.id, ...h.coreTool('read-text-file'), args: { path: path.join(folder, 'note.txt') } });
    const done = await h.settled(chat.id);
    expect(done.status).toBe('idle');
    expect(done.pending).toEqual([]);
    expect(done.messages[0]).toMatchObject({ role: 'tool-run', call: { status: 'succeeded', result: { ok: true, value: expect.objectContaining({ text: 'from the palette' }) as unknown } } });
  });
});

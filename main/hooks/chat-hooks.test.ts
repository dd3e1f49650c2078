import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { openAiTextReply, openAiToolCallReply, startFakeOpenAi } from '../../testing/servers/fake-openai.js';
import { PROJECT_ROOT } from '../../testing/cores/spawned-host.js';
import { startChatHarness } from '../../testing/harness/chat-harness.js';
import type { AssistantMessage, Chat, UserMessage } from '../../shared/schemas/chat.js';
import { CORE_BUNDLE } from '../../testing/data/fixtures.js';
import { userMessageText } from '../providers/transcript.js';

const assistants = (chat: Chat) => chat.messages.filter((message): message is AssistantMessage => message.role === 'assistant');

const GUARD = `${JSON.stringify(process.execPath)} ${JSON.stringify(path.join(PROJECT_ROOT, 'testing/hooks/chat-guard.mjs'))}`;

async function hookedChat(script: { text: string }[]) {
  const h = await startChatHarness();
  await h.call('settings.patch', { hooks: { UserPromptSubmit: [{ hooks: [{ type: 'command', command: GUARD }] }], Stop: [{ hooks: [{ type: 'command', command: GUARD }] }], SessionStart: [{ hooks: [{ type: 'command', command: GUARD }] }, { matcher: 'resume|compact', hooks: [{ type: 'command', command: GUARD }] }] } } as never);
  await h.provider('script', { kind: 'scripted', displayName: 'Script', script });
  const chat = await h.chat({ providerId: 'script' });
  const log = async () => (await readFile(path.join(h.dataDir, 'chat-hooks.log'), 'utf8')).trim().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);
  return { h, chat, log };
}

describe('hooks on a chat (Claude Code’s SessionStart, UserPromptSubmit and Stop)', () => {
  it('UserPromptSubmit blocks a message by exit code 2 (nothing kept), and adds what it prints for the model to another', async () => {
    const { h, chat, log } = await hookedChat([{ text: 'Noted.' }, { text: 'Tests ran: all.' }]);
    const refused = await h.failure('chats.send', { chatId: chat.id, content: 'my password is hunter2' });
    expect(refused).toMatchObject({ code: 'hook_denied', message: 'A hook stopped this message: Do not paste passwords into chats.' });
    expect((await h.call('chats.get', { chatId: chat.id })).messages).toEqual([]);

    await h.call('chats.send', { chatId: chat.id, content: 'what is this repository?' });
    const done = await h.settled(chat.id);
    const asked = done.messages[0] as UserMessage;
    expect(asked).toMatchObject({ content: 'what is this repository?', hookContext: 'The person works on the Toolbelt repository.' });
    // Kept with the message, for the person to see which hooks ran on it.
    expect(asked.hooks?.map((run) => [run.event, run.decision])).toEqual([['UserPromptSubmit', 'continue']]);
    // The model reads it with the message, marked as the hooks'.
    expect(userMessageText(asked)).toBe("what is this repository?\n\n[From the person's hooks: The person works on the Toolbelt repository.]");
    expect((await log()).filter((line) => line.event === 'UserPromptSubmit').map((line) => [line.session, line.prompt])).toEqual([
      [chat.id, 'my password is hunter2'],
      [chat.id, 'what is this repository?'],
    ]);
  });

  it('SessionStart gives the model its line from the start; Stop sends the model back to work once, with the reason on its next turn, and lets it stop when told it already did', async () => {
    const { h, log } = await hookedChat([]);
    // A provider through its real SDK against a server that speaks its wire format: what the model is sent is seen.
    const openai = await startFakeOpenAi([openAiTextReply(['Done.']), openAiTextReply(['Done; I ran the unit tests.'])]);
    onTestFinished(() => openai.close());
    await h.provider('fake-openai', { kind: 'openai', displayName: 'Fake OpenAI', baseURL: `${openai.url}/v1` });
    const chat = await h.chat({ providerId: 'fake-openai' });
    await h.call('chats.send', { chatId: chat.id, content: 'fix it' });
    const done = await h.settled(chat.id);
    expect(done.status).toBe('idle');
    expect(done.messages.filter((message) => message.role === 'assistant').map((message) => message.content)).toEqual(['Done.', 'Done; I ran the unit tests.']);
    // SessionStart ran as the chat was made: what it printed is in the system prompt of every request.
    expect(done.hookContext).toBe('Today the person reviews pull requests.');
    // The chat keeps which hooks ran as it was made, and each message the model said it was done with keeps its Stop runs.
    expect(done.startHooks?.map((run) => [run.event, run.decision])).toEqual([['SessionStart', 'continue']]);
    const answers = done.messages.flatMap((message) => (message.role === 'assistant' ? [message.hooks?.map((run) => [run.event, run.decision])] : []));
    expect(answers).toEqual([[['Stop', 'block']], [['Stop', 'continue']]]);
    // Once per chat made (two here): the hook whose matcher wants a resumed session does not run for a new chat.
    const started = (await log()).filter((line) => line.event === 'SessionStart').map((line) => line.session);
    expect(started).toHaveLength(2);
    expect(new Set(started).size).toBe(2);
    expect(started).toContain(chat.id);
    const sent = openai.requests[0]!.body.messages as { role: string; content: string }[];
    expect(sent[0]).toEqual({ role: 'system', content: "[From the person's hooks, when this chat started: Today the person reviews pull requests.]" });
    const told = (openai.requests[1]!.body.messages as { role: string; content: string }[]).at(-1)!;
    expect(told).toEqual({ role: 'user', content: "[From the person's hooks, before you finish: Also say which tests you ran.]" });
    // Said on that turn only: the chat keeps no such message.
    expect(done.messages.some((message) => message.role === 'user' && message.content.includes('before you finish'))).toBe(false);
    expect((await log()).filter((line) => line.event === 'Stop').map((line) => [line.active, line.last])).toEqual([
      [false, 'Done.'],
      [true, 'Done; I ran the unit tests.'],
    ]);
  });

  it('an agent a chat runs: SubagentStart gives it a line, SubagentStop sends it back once; both in the chat’s session, and only where their matcher takes the agent', async () => {
    const h = await startChatHarness();
    // The chat's model calls the agent; the agent's own model answers twice (sent back once by SubagentStop).
    const outer = await startFakeOpenAi([openAiToolCallReply([{ id: 'c0', name: 'researcher', args: ['{"task":"Find the capital of Peru."}'] }]), openAiTextReply(['Lima.'])]);
    const inner = await startFakeOpenAi([openAiTextReply(['Lima.']), openAiTextReply(['Lima, says the atlas.'])]);
    onTestFinished(async () => {
      await Promise.all([outer.close(), inner.close()]);
    });
    await h.provider('outer', { kind: 'openai', displayName: 'Outer', baseURL: `${outer.url}/v1`, apiKey: 'sk-outer' });
    await h.provider('inner', { kind: 'openai', displayName: 'Inner', baseURL: `${inner.url}/v1`, apiKey: 'sk-inner' });
    await h.call('tools.put', { bundleID: h.bundleID, toolSlug: 'researcher', version: 'v1', tool: { displayName: 'Researcher', type: 'agent', argSchema: { type: 'object', properties: { task: { type: 'string' } }, required: ['task'] }, impl: { providerId: 'inner', model: 'gpt-4o-mini', tools: [] } } as never });
    // The same hook for another agent type, which must not run (it would log a second SubagentStart).
    await h.call('settings.patch', {
      hooks: {
        SubagentStart: [{ matcher: 'researcher', hooks: [{ type: 'command', command: GUARD }] }, { matcher: 'writer', hooks: [{ type: 'command', command: GUARD }] }],
        SubagentStop: [{ matcher: 'Researcher', hooks: [{ type: 'command', command: GUARD }] }],
      },
    } as never);
    const chat = await h.chat({ providerId: 'outer', tools: { mode: 'auto', selected: [h.tool('researcher')] } });
    await h.call('chats.send', { chatId: chat.id, content: 'capital of Peru?' });
    const done = await h.settled(chat.id);
    const call = done.messages.flatMap((message) => (message.role === 'assistant' ? message.toolCalls : []))[0]!;
    expect(call.result).toMatchObject({ ok: true, value: 'Lima, says the atlas.' });
    // The agent's card shows the hooks that ran on it, in the order they ran.
    expect(call.result?.hooks?.map((run) => [run.event, run.decision])).toEqual([
      ['SubagentStart', 'continue'],
      ['SubagentStop', 'block'],
      ['SubagentStop', 'continue'],
    ]);
    // The agent read the SubagentStart line in its instructions, and the SubagentStop reason on its second turn.
    const first = inner.requests[0]!.body.messages as { role: string; content: string }[];
    expect(first[0]).toEqual({ role: 'system', content: "[From the person's hooks, when this chat started: Answer in one sentence.]" });
    expect((inner.requests[1]!.body.messages as { role: string; content: string }[]).at(-1)).toEqual({ role: 'user', content: "[From the person's hooks, before you finish: Name your source.]" });
    const log = (await readFile(path.join(h.dataDir, 'chat-hooks.log'), 'utf8')).trim().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(log.map((line) => [line.event, line.session, line.agent, line.active ?? null])).toEqual([
      ['SubagentStart', chat.id, 'researcher', null],
      ['SubagentStop', chat.id, 'researcher', false],
      ['SubagentStop', chat.id, 'researcher', true],
    ]);
  });
});

describe("a chat's own hooks", () => {
  it('run for that chat only: its messages and its model’s tool calls; another chat goes on', async () => {
    const h = await startChatHarness();
    const sums = { bundleID: CORE_BUNDLE, slug: 'calculator', version: 'v1' };
    const turn = [{ toolCalls: [{ name: 'calculator', args: { expression: '2 + 2' } }] }, { text: 'Done.' }];
    await h.provider('script', { kind: 'scripted', displayName: 'Script', script: [...turn, ...turn] });
    const guarded = await h.chat({ providerId: 'script', tools: { mode: 'auto', selected: [sums] } });
    const open = await h.chat({ providerId: 'script', tools: { mode: 'auto', selected: [sums] } });
    const noSums = `${JSON.stringify(process.execPath)} -e "process.stderr.write('No sums in this chat.'); process.exit(2)"`;
    await h.call('chats.update', { chatId: guarded.id, hooks: { UserPromptSubmit: [{ hooks: [{ type: 'command', command: GUARD }] }], PreToolUse: [{ matcher: 'calculator', hooks: [{ type: 'command', command: noSums }] }] } });
    // A matcher the engine cannot run is refused when saved, with where.
    expect(await h.failure('chats.update', { chatId: open.id, hooks: { PreToolUse: [{ matcher: '(?=x)', hooks: [{ type: 'command', command: 'true' }] }] } })).toMatchObject({ code: 'invalid_params' });

    expect(await h.failure('chats.send', { chatId: guarded.id, content: 'my password is hunter2' })).toMatchObject({ code: 'hook_denied' });
    await h.call('chats.send', { chatId: guarded.id, content: 'add two and two' });
    const blocked = assistants(await h.settled(guarded.id))[0]!.toolCalls[0]!;
    expect(blocked.result).toMatchObject({ ok: false, error: { code: 'hook_denied', message: 'No sums in this chat.' } });

    await h.call('chats.send', { chatId: open.id, content: 'my password is hunter2, add two and two' });
    const ran = assistants(await h.settled(open.id))[0]!.toolCalls[0]!;
    expect(ran.result).toMatchObject({ ok: true, value: { value: 4 } });

    // `{}` takes them away.
    await h.call('chats.update', { chatId: guarded.id, hooks: {} });
    expect((await h.call('chats.get', { chatId: guarded.id })).hooks).toBeUndefined();
  });
});

import { mkdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { startChatHarness } from '../../testing/harness/chat-harness.js';
import { storageFailure } from '../common/storage-errors.js';

describe('a chat that cannot be saved', () => {
  it('ends its run with storage_failed and the reason, tells the window, and the core goes on', async () => {
    const h = await startChatHarness();
    await h.provider('script', { kind: 'scripted', displayName: 'Script', script: [{ text: 'Checking.', toolCalls: [{ name: 'weather', args: { city: 'Oslo' } }] }, { text: 'Done.' }] });
    const chat = await h.chat({ providerId: 'script', tools: { mode: 'auto', selected: [h.tool('weather')] } });
    const kept = await h.chat({ providerId: 'script' });
    const chatsDir = path.join(h.core.dataDir, 'chats');
    const keptText = await readFile(path.join(chatsDir, `${kept.id}.json`), 'utf8');

    // A folder where the chat's file should be: every atomic rename onto it fails (EISDIR), as a full disk fails every write.
    const file = path.join(chatsDir, `${chat.id}.json`);
    await rm(file);
    await mkdir(file);
    await h.call('chats.send', { chatId: chat.id, content: 'weather?' });
    const done = await h.settled(chat.id);

    expect(done.status).toBe('error');
    expect(done.lastRun?.error).toEqual({ code: 'storage_failed', message: 'Could not save the chat: a folder is in the way of the file (EISDIR) — move that folder away and send again.' });
    expect(h.streamOf(chat.id)).toContainEqual({ type: 'error', code: 'storage_failed', message: expect.stringContaining('EISDIR') as unknown });
    // What is on disk is left alone: the folder in the way and the other chat.
    expect((await stat(file)).isDirectory()).toBe(true);
    expect(await readFile(path.join(chatsDir, `${kept.id}.json`), 'utf8')).toBe(keptText);

    // The core still serves, and the chat works again once the folder is moved away.
    await rm(file, { recursive: true });
    await h.call('chats.send', { chatId: chat.id, content: 'again?' });
    expect((await h.settled(chat.id)).status).not.toBe('running');
    expect(JSON.parse(await readFile(file, 'utf8'))).toMatchObject({ id: chat.id });
  });

  it('answers a change it cannot save with storage_failed (507), not an internal error', async () => {
    const h = await startChatHarness();
    await h.provider('script', { kind: 'scripted', displayName: 'Script' });
    const chat = await h.chat({ providerId: 'script' });
    const file = path.join(h.core.dataDir, 'chats', `${chat.id}.json`);
    await rm(file);
    await mkdir(file);
    const failure = await h.failure('chats.update', { chatId: chat.id, title: 'Renamed' });
    expect(failure.code).toBe('storage_failed');
    expect(failure.message).toContain('EISDIR');
  });
});

describe('a chat file that is not a valid chat', () => {
  it('opens read-only: the problem, the title and what each message says, field by field; the file is left as it is', async () => {
    const h = await startChatHarness();
    await h.provider('script', { kind: 'scripted', displayName: 'Script' });
    const chat = await h.chat({ providerId: 'script', title: 'Trip plans' });
    await h.call('chats.send', { chatId: chat.id, content: 'Hotels in Oslo?' });
    const done = await h.settled(chat.id);
    const file = path.join(h.core.dataDir, 'chats', `${chat.id}.json`);
    // A tool call without a name, as an older version could store: the schema refuses the whole chat.
    const broken = { ...done, messages: [...done.messages, { id: '019a0000-0000-7000-8000-0000000000aa', role: 'assistant', content: 'Checking.', model: 'm', toolCalls: [{ id: 'c', args: {}, status: 'failed' }], createdAt: done.createdAt }, 42] };
    const text = JSON.stringify(broken);
    await writeFile(file, text);

    expect((await h.failure('chats.get', { chatId: chat.id })).code).toBe('file_invalid');
    const salvaged = await h.call('chats.salvage', { chatId: chat.id });
    expect(salvaged.problem.file).toBe(file);
    // The problem of the message as the kind it claims to be, not every kind's complaints.
    expect(salvaged.problem.reason).toBe('does not hold a valid chat: /messages/2/toolCalls/0/name is required; /messages/3 must be an object');
    expect(salvaged.chat).toEqual({
      title: 'Trip plans',
      messages: [
        { role: 'user', text: 'Hotels in Oslo?', toolCalls: [] },
        { role: 'assistant', text: 'You said: Hotels in Oslo?', toolCalls: [] },
        { role: 'assistant', text: 'Checking.', toolCalls: [{ name: '(no name)', status: 'failed' }] },
        { role: 'unknown', text: '', toolCalls: [] },
      ],
    });
    expect(await readFile(file, 'utf8')).toBe(text);

    // Not JSON at all: its text, cut to a size a window can show.
    await writeFile(file, `{"title": "half ${'x'.repeat(300_000)}`);
    const raw = await h.call('chats.salvage', { chatId: chat.id });
    expect(raw.chat.messages).toEqual([]);
    expect(raw.chat.rawText).toHaveLength(200_000);

    // A valid chat is opened, not salvaged; a name that is not a chat file's is refused before any path is made.
    const other = await h.chat({ providerId: 'script' });
    expect((await h.failure('chats.salvage', { chatId: other.id })).code).toBe('conflict');
    expect((await h.failure('chats.salvage', { chatId: '../../secrets' })).code).toBe('invalid_params');
  });
});

describe('storage failure messages', () => {
  it('say what happened and what to do, with the error code', () => {
    const full = Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
    expect(storageFailure(full, 'Could not save the chat', 'send again').message).toBe('Could not save the chat: disk full (ENOSPC) — free some space and send again.');
    const busy = Object.assign(new Error('EBUSY'), { code: 'EBUSY' });
    expect(storageFailure(busy, 'Could not save the tool').message).toBe('Could not save the tool: another program holds the file (EBUSY) — close that program and try again.');
    const odd = Object.assign(new Error('EWEIRD'), { code: 'EWEIRD' });
    expect(storageFailure(odd, 'Could not save the tool')).toMatchObject({ code: 'storage_failed', message: 'Could not save the tool: error EWEIRD — try again.' });
  });
});

import { describe, expect, it, vi } from 'vitest';
import type { Chat } from '../../shared/schemas/chat.js';
import { startTestCore } from '../../testing/harness/test-core.js';

function settled(call: Awaited<ReturnType<typeof startTestCore>>['call'], chatId: string): Promise<Chat> {
  return vi.waitFor(
    async () => {
      const chat = await call('chats.get', { chatId });
      if (chat.status === 'running') throw new Error('still running');
      return chat;
    },
    { timeout: 4_000, interval: 10 },
  );
}

describe('two Toolbelt processes on one data folder', () => {
  it('lets one run a chat at a time, and each sees the other’s changes instead of writing over them', async () => {
    const a = await startTestCore();
    const b = await startTestCore({ dataDir: a.dataDir });
    await a.call('providers.put', { id: 'script', kind: 'scripted', displayName: 'Script', chunkDelayMs: 20, script: [{ text: 'one two three four five six seven eight' }, { text: 'second answer' }] });
    const chat = await a.call('chats.create', { providerId: 'script', model: 'scripted' });

    // B finds the chat A made, without a restart.
    expect((await b.call('chats.list', {})).chats.map((entry) => entry.id)).toEqual([chat.id]);

    await a.call('chats.send', { chatId: chat.id, content: 'first' });
    const busy = await b.failure('chats.send', { chatId: chat.id, content: 'from b' });
    expect(busy).toMatchObject({ code: 'chat_busy', message: expect.stringContaining('another Toolbelt window') as unknown });
    await settled(a.call, chat.id);

    // B reads A's answer, renames the chat without losing it, and runs the next turn itself.
    const seenByB = await b.call('chats.get', { chatId: chat.id });
    expect(seenByB.messages.map((message) => message.role)).toEqual(['user', 'assistant']);
    await b.call('chats.update', { chatId: chat.id, title: 'Renamed in B' });
    await b.call('chats.send', { chatId: chat.id, content: 'second' });
    const done = await settled(b.call, chat.id);
    expect(done.messages).toHaveLength(4);
    const inA = await a.call('chats.get', { chatId: chat.id });
    expect(inA.title).toBe('Renamed in B');
    expect(inA.messages.map((message) => (message.role === 'user' || message.role === 'assistant' ? message.content : ''))).toEqual([
      'first',
      'one two three four five six seven eight',
      'second',
      'second answer',
    ]);

    // A deleted chat disappears from the other process's list.
    await a.call('chats.delete', { chatId: chat.id });
    expect((await b.call('chats.list', {})).chats).toEqual([]);
    expect((await b.failure('chats.get', { chatId: chat.id })).code).toBe('not_found');
  });
});

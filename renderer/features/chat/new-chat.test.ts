import { describe, expect, it } from 'vitest';
import type { ChatSummary } from '../../../shared/schemas/chat.js';
import { reusableNewChat } from './new-chat.js';

const summary = (id: string, extra: Partial<ChatSummary> = {}): ChatSummary => ({
  id,
  title: 'New chat',
  providerId: 'local',
  model: 'llama3.1',
  status: 'idle',
  messageCount: 0,
  pinned: false,
  createdAt: '2026-11-23T10:00:00.000Z',
  updatedAt: '2026-11-23T10:00:00.000Z',
  ...extra,
});

describe('New chat', () => {
  it('reuses an untouched new chat instead of making another', () => {
    expect(reusableNewChat([summary('a', { title: 'hello', messageCount: 2 }), summary('b')], () => false)?.id).toBe('b');
  });

  it('makes a new one when the list is a moment behind a chat that just got its first message', () => {
    // The list still says "New chat, 0 messages"; the chat's own streamed data has the message.
    expect(reusableNewChat([summary('a')], (chatId) => chatId === 'a')).toBeUndefined();
  });
});

import { describe, expect, it } from 'vitest';
import { blankChat } from '../../shared/chat/chat-calls.js';
import type { Chat } from '../../shared/schemas/chat.js';
import { applyChatEvent, mergeFetchedChat } from './apply-chat-event.js';

const at = '2026-01-01T00:00:00.000Z';
const base = blankChat({ id: '019a0000-0000-7000-8000-000000000001', title: 't', providerId: 'p', model: 'm', createdAt: at });
const assistantId = '019a0000-0000-7000-8000-000000000002';

describe('applying streamed chat events', () => {
  it('builds an answer from a message, text deltas and tool call updates, once each', () => {
    const message = { id: assistantId, role: 'assistant' as const, content: '', toolCalls: [], model: 'm', createdAt: at };
    let chat = applyChatEvent(base, { type: 'message', message });
    chat = applyChatEvent(chat, { type: 'message', message });
    chat = applyChatEvent(chat, { type: 'text-delta', messageId: assistantId, text: 'Hel' });
    chat = applyChatEvent(chat, { type: 'text-delta', messageId: assistantId, text: 'lo' });
    const call = { id: 'c1', name: 'weather', args: { city: 'Oslo' }, status: 'running' as const };
    chat = applyChatEvent(chat, { type: 'tool-call', messageId: assistantId, call });
    chat = applyChatEvent(chat, { type: 'tool-result', messageId: assistantId, call: { ...call, status: 'succeeded', result: { ok: true, value: 1, durationMs: 2, attempts: 1 } } });
    expect(chat.status).toBe('running');
    expect(chat.messages).toHaveLength(1);
    expect(chat.messages[0]).toMatchObject({ content: 'Hello', toolCalls: [{ id: 'c1', status: 'succeeded' }] });
    expect(applyChatEvent(chat, { type: 'finish', reason: 'stop', status: 'idle' }).status).toBe('idle');
    expect(base.messages).toEqual([]);
  });

  it('drops a rewound message and all after it (an edit, a regenerate), and ignores a rewind it cannot place', () => {
    const user = { id: '019a0000-0000-7000-8000-000000000005', role: 'user' as const, content: 'hi', createdAt: at };
    const answer = { id: assistantId, role: 'assistant' as const, content: 'Hello', toolCalls: [], model: 'm', createdAt: at };
    const chat: Chat = { ...base, messages: [user, answer] };
    expect(applyChatEvent(chat, { type: 'rewind', fromMessageId: assistantId }).messages).toEqual([user]);
    expect(applyChatEvent(chat, { type: 'rewind', fromMessageId: user.id }).messages).toEqual([]);
    expect(applyChatEvent(chat, { type: 'rewind', fromMessageId: 'gone' })).toBe(chat);
  });
});

describe('reading a chat while it streams', () => {
  it('keeps streamed text and messages that a read from before them does not have', () => {
    const user = { id: '019a0000-0000-7000-8000-000000000005', role: 'user' as const, content: 'hi', createdAt: at };
    const answer = { id: assistantId, role: 'assistant' as const, content: 'Hello wor', toolCalls: [], model: 'm', createdAt: '2026-01-01T00:00:01.000Z' };
    const seen: Chat = { ...base, status: 'running', messages: [user, answer] };
    const olderRead: Chat = { ...base, status: 'running', messages: [user] };
    expect(mergeFetchedChat(seen, olderRead).messages).toEqual([user, answer]);
    const partialRead: Chat = { ...base, status: 'running', title: 'hi', messages: [user, { ...answer, content: 'Hel' }] };
    const merged = mergeFetchedChat(seen, partialRead);
    expect(merged.title).toBe('hi');
    expect(merged.messages[1]).toMatchObject({ content: 'Hello wor' });
    // Once the run is over, the core's copy is the truth.
    expect(mergeFetchedChat(seen, { ...olderRead, status: 'idle' }).messages).toEqual([user]);
  });

  it('drops a read that is older than the chat the window holds (a switch flipped meanwhile stays flipped)', () => {
    const saved: Chat = { ...base, updatedAt: '2026-01-01T00:00:05.000Z', title: 'after the change' };
    const staleRead: Chat = { ...base, updatedAt: '2026-01-01T00:00:04.000Z', title: 'before the change' };
    expect(mergeFetchedChat(saved, staleRead)).toBe(saved);
    const laterRead: Chat = { ...base, updatedAt: '2026-01-01T00:00:06.000Z', title: 'later still' };
    expect(mergeFetchedChat(saved, laterRead)).toBe(laterRead);
  });
});

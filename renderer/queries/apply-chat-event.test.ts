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

  it('keeps a call’s progress, its result and calls streamed after a read answered before them', () => {
    const running = { id: 'c1', name: 'build', args: {}, status: 'running' as const };
    const streamed = { ...running, progress: { progress: 1, message: '{"step":"compile"}' } };
    const answer = { id: assistantId, role: 'assistant' as const, content: '', toolCalls: [streamed], model: 'm', createdAt: at };
    const seen: Chat = { ...base, status: 'running', messages: [answer] };
    const read: Chat = { ...base, status: 'running', title: 'read', messages: [{ ...answer, toolCalls: [running] }] };
    expect(mergeFetchedChat(seen, { ...read, messages: [{ ...answer, toolCalls: [{ ...running, status: 'queued' }] }] }).messages[0]).toMatchObject({ toolCalls: [streamed] });
    const merged = mergeFetchedChat(seen, read);
    expect(merged.title).toBe('read');
    expect(merged.messages[0]).toMatchObject({ toolCalls: [{ id: 'c1', progress: { progress: 1, message: '{"step":"compile"}' } }] });
    // A read with later progress, or the call settled, is taken as it is.
    const later = { ...running, progress: { progress: 2 } };
    expect(mergeFetchedChat(seen, { ...read, messages: [{ ...answer, toolCalls: [later] }] }).messages[0]).toMatchObject({ toolCalls: [later] });
    const done = { ...running, status: 'succeeded' as const, result: { ok: true as const, value: 1, durationMs: 2, attempts: 1 } };
    expect(mergeFetchedChat(seen, { ...read, messages: [{ ...answer, toolCalls: [done] }] }).messages[0]).toMatchObject({ toolCalls: [done] });
    // A settled call is not put back to running by an older read, and a call streamed after the read stays.
    const seenDone: Chat = { ...seen, messages: [{ ...answer, toolCalls: [done, { ...running, id: 'c2' }] }] };
    expect(mergeFetchedChat(seenDone, read).messages[0]).toMatchObject({ toolCalls: [done, { id: 'c2', status: 'running' }] });
    // A run started from the palette is one call in its own message.
    const run = { id: '019a0000-0000-7000-8000-000000000009', role: 'tool-run' as const, call: streamed, shareWithModel: true, createdAt: at };
    expect(mergeFetchedChat({ ...seen, messages: [run] }, { ...read, messages: [{ ...run, call: running }] }).messages[0]).toMatchObject({ call: streamed });
  });

  it('drops a read that is older than the chat the window holds (a switch flipped meanwhile stays flipped)', () => {
    const saved: Chat = { ...base, updatedAt: '2026-01-01T00:00:05.000Z', title: 'after the change' };
    const staleRead: Chat = { ...base, updatedAt: '2026-01-01T00:00:04.000Z', title: 'before the change' };
    expect(mergeFetchedChat(saved, staleRead)).toBe(saved);
    const laterRead: Chat = { ...base, updatedAt: '2026-01-01T00:00:06.000Z', title: 'later still' };
    expect(mergeFetchedChat(saved, laterRead)).toBe(laterRead);
  });
});

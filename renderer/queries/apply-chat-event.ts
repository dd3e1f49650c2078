import { isUnfinished } from '../../shared/chat/chat-calls.js';
import type { Chat, ChatMessage, ChatStreamEvent, ToolCall } from '../../shared/schemas/chat.js';

function withCall(message: ChatMessage, call: ToolCall): ChatMessage {
  if (message.role === 'tool-run') return message.call.id === call.id ? { ...message, call } : message;
  if (message.role !== 'assistant') return message;
  const index = message.toolCalls.findIndex((existing) => existing.id === call.id);
  const toolCalls = index === -1 ? [...message.toolCalls, call] : message.toolCalls.map((existing, at) => (at === index ? call : existing));
  return { ...message, toolCalls };
}

function mapMessage(chat: Chat, messageId: string, change: (message: ChatMessage) => ChatMessage): Chat {
  let found = false;
  const messages = chat.messages.map((message) => {
    if (message.id !== messageId) return message;
    found = true;
    return change(message);
  });
  return found ? { ...chat, messages } : chat;
}

/**
 * A streamed event applied to the chat as the window last read it, so text
 * and tool cards appear as they arrive; the chat is read again when the run
 * stops, which settles anything this missed.
 */
export function applyChatEvent(chat: Chat, event: ChatStreamEvent): Chat {
  switch (event.type) {
    case 'message':
      if (chat.messages.some((message) => message.id === event.message.id)) return chat;
      return { ...chat, status: 'running', messages: [...chat.messages, event.message] };
    case 'rewind': {
      const from = chat.messages.findIndex((message) => message.id === event.fromMessageId);
      return from === -1 ? chat : { ...chat, messages: chat.messages.slice(0, from) };
    }
    case 'text-delta':
      return mapMessage(chat, event.messageId, (message) => (message.role === 'assistant' ? { ...message, content: message.content + event.text } : message));
    case 'tool-call':
    case 'tool-result':
      return mapMessage(chat, event.messageId, (message) => withCall(message, event.call));
    case 'finish':
      return { ...chat, status: event.status };
    default:
      return chat;
  }
}

/**
 * A chat read from the core while a run streams may be older than events
 * already applied (it was read before they happened): keep what the window
 * has seen that the read does not, so streamed text never goes back. A read
 * older than the chat the window holds (by its save time) is dropped.
 */
export function mergeFetchedChat(seen: Chat | undefined, fetched: Chat): Chat {
  // A read begun before a change this window already has (a switch it flipped, answered with the chat as saved)
  // lands after it: older than what is shown, it would put the old state back.
  if (seen && seen.id === fetched.id && seen.updatedAt > fetched.updatedAt) return seen;
  if (!seen || seen.id !== fetched.id || fetched.status !== 'running') return fetched;
  const fetchedIds = new Set(fetched.messages.map((message) => message.id));
  const seenById = new Map(seen.messages.map((message) => [message.id, message]));
  const messages = fetched.messages.map((message) => {
    const mine = seenById.get(message.id);
    if (message.role === 'assistant' && mine?.role === 'assistant') {
      const content = mine.content.length > message.content.length ? mine.content : message.content;
      return { ...message, content, toolCalls: mergeCalls(mine.toolCalls, message.toolCalls) };
    }
    if (message.role === 'tool-run' && mine?.role === 'tool-run') return { ...message, call: laterCall(mine.call, message.call) };
    return message;
  });
  const newer = seen.messages.filter((message) => !fetchedIds.has(message.id) && message.createdAt >= (fetched.messages.at(-1)?.createdAt ?? ''));
  return { ...fetched, messages: [...messages, ...newer] };
}

/** How far a call has gone: waiting (queued, or on the person) → running → settled; it never goes back within a run. */
const stage = (call: ToolCall): number => (!isUnfinished(call) ? 2 : call.status === 'running' ? 1 : 0);

/** A message's calls as read, each as far on as the window has seen it, and the calls streamed after the read. */
function mergeCalls(seen: ToolCall[], fetched: ToolCall[]): ToolCall[] {
  const seenById = new Map(seen.map((call) => [call.id, call]));
  const fetchedIds = new Set(fetched.map((call) => call.id));
  const merged = fetched.map((call) => {
    const mine = seenById.get(call.id);
    return mine ? laterCall(mine, call) : call;
  });
  return [...merged, ...seen.filter((call) => !fetchedIds.has(call.id))];
}

/**
 * Of one call as streamed and as read, the later: a read answered before an event the window already applied
 * would take its result or its progress away, and a stream holding still sends no other to put it back.
 */
function laterCall(seen: ToolCall, fetched: ToolCall): ToolCall {
  if (stage(seen) > stage(fetched)) return seen;
  if (seen.status === 'running' && fetched.status === 'running' && seen.progress && seen.progress.progress > (fetched.progress?.progress ?? -Infinity)) {
    return { ...fetched, progress: seen.progress };
  }
  return fetched;
}

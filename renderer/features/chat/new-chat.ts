import type { ChatSummary } from '../../../shared/schemas/chat.js';

/**
 * The new chat that "New chat" may reuse instead of piling up empty ones:
 * one the list shows untouched, unless its own data (streamed, ahead of the
 * list) already has messages.
 */
export function reusableNewChat(chats: readonly ChatSummary[] | undefined, hasMessages: (chatId: string) => boolean): ChatSummary | undefined {
  return chats?.find((chat) => chat.messageCount === 0 && chat.title === 'New chat' && !hasMessages(chat.id));
}

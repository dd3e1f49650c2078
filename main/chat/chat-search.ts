import type { Chat, ChatMessage } from '../../shared/schemas/chat.js';

const MAX_RESULTS = 50;
const SNIPPET_RADIUS = 70;

export interface ChatSearchHit {
  chatId: string;
  messageId?: string;
  snippet: string;
}

function searchableText(message: ChatMessage): string {
  if (message.role === 'user') return message.content;
  if (message.role === 'assistant') return message.content;
  return message.call.tool?.displayName ?? message.call.name;
}

/** The words around the first match, on one line, with "…" where text was cut. */
function snippetAround(text: string, at: number, length: number): string {
  const start = Math.max(0, at - SNIPPET_RADIUS);
  const end = Math.min(text.length, at + length + SNIPPET_RADIUS);
  const middle = text.slice(start, end).replace(/\s+/g, ' ').trim();
  return `${start > 0 ? '…' : ''}${middle}${end < text.length ? '…' : ''}`;
}

/**
 * Chats that hold every word of the query (case-insensitive) in their title
 * or messages: chats whose title matches first, then the most recently
 * active. Each hit shows where its first word was found.
 */
export function searchChats(chats: readonly Chat[], query: string): ChatSearchHit[] {
  const words = query.toLocaleLowerCase().split(/\s+/).filter(Boolean);
  if (words.length === 0) return [];
  const hits: { hit: ChatSearchHit; inTitle: boolean; updatedAt: string }[] = [];
  for (const chat of chats) {
    const title = chat.title.toLocaleLowerCase();
    const texts = chat.messages.map((message) => ({ message, lower: searchableText(message).toLocaleLowerCase() }));
    const found = (word: string) => title.includes(word) || texts.some(({ lower }) => lower.includes(word));
    if (!words.every(found)) continue;
    const inTitle = words.every((word) => title.includes(word));
    const where = texts.find(({ lower }) => lower.includes(words[0]!));
    const hit: ChatSearchHit = where
      ? { chatId: chat.id, messageId: where.message.id, snippet: snippetAround(searchableText(where.message), where.lower.indexOf(words[0]!), words[0]!.length) }
      : { chatId: chat.id, snippet: chat.title };
    hits.push({ hit, inTitle, updatedAt: chat.updatedAt });
  }
  hits.sort((a, b) => Number(b.inTitle) - Number(a.inTitle) || b.updatedAt.localeCompare(a.updatedAt));
  return hits.slice(0, MAX_RESULTS).map(({ hit }) => hit);
}

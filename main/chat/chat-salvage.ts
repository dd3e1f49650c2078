import type { SalvagedChat, SalvagedMessage } from '../../shared/schemas/salvaged-chat.js';

const MAX_MESSAGES = 5_000;
const MAX_TEXT = 100_000;
const MAX_RAW = 200_000;

function record(value: unknown): Record<string, unknown> | null {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
}

function text(value: unknown): string {
  if (typeof value !== 'string') return '';
  return value.length > MAX_TEXT ? `${value.slice(0, MAX_TEXT)}…` : value;
}

function callsOf(message: Record<string, unknown>): SalvagedMessage['toolCalls'] {
  const calls = Array.isArray(message.toolCalls) ? message.toolCalls : message.call !== undefined ? [message.call] : [];
  return calls.flatMap((entry) => {
    const call = record(entry);
    if (!call) return [];
    return [{ name: text(call.name) || '(no name)', status: typeof call.status === 'string' ? call.status.slice(0, 40) : 'unknown' }];
  });
}

function messageOf(entry: unknown): SalvagedMessage {
  const message = record(entry);
  if (!message) return { role: 'unknown', text: '', toolCalls: [] };
  const role = message.role === 'user' || message.role === 'assistant' || message.role === 'tool-run' ? message.role : 'unknown';
  return { role, text: text(message.content), toolCalls: callsOf(message) };
}

/**
 * What can still be read of a chat file that is not a valid chat: its title
 * and each message's words and tool calls, read field by field so one bad
 * value costs only itself. A file that is not JSON at all is shown as text.
 */
export function salvageChat(read: { ok: true; value: unknown } | { ok: false; text?: string }): SalvagedChat {
  if (!read.ok) return { messages: [], ...(read.text !== undefined ? { rawText: read.text.slice(0, MAX_RAW) } : {}) };
  const chat = record(read.value);
  if (!chat) return { messages: [], rawText: (JSON.stringify(read.value) ?? '').slice(0, MAX_RAW) };
  const messages = Array.isArray(chat.messages) ? chat.messages.slice(0, MAX_MESSAGES).map(messageOf) : [];
  const title = text(chat.title).slice(0, 200);
  return { ...(title ? { title } : {}), messages };
}

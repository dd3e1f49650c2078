import { Allow, parse } from 'partial-json';
import type { ChatMessage, ToolCall } from '../../../shared/schemas/chat.js';
import { useInputDrafts, type InputDraft } from '../../state/input-drafts.js';

const NONE: readonly ToolCall[] = [];

/** What the arguments written so far say: the object as far as it goes, or nothing yet. */
export function partialArguments(text: string): Record<string, unknown> {
  if (!text.trim()) return {};
  try {
    const value: unknown = parse(text, Allow.ALL);
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
  } catch {
    // A piece that does not read as JSON yet (or at all): the next piece, or the whole call, says more.
    return {};
  }
}

const asCall = (draft: InputDraft): ToolCall => ({
  id: draft.callId,
  name: draft.name,
  ...(draft.tool ? { tool: draft.tool } : {}),
  args: partialArguments(draft.text),
  status: 'queued',
});

/**
 * The calls of an assistant message the model is still writing, as calls
 * (arguments as far as they go), after those it has finished: the card a
 * call gets while written is the card it keeps, so an app shown in it goes
 * on from what it was shown.
 */
export function useCallsBeingWritten(chatId: string, message: ChatMessage): readonly ToolCall[] {
  const drafts = useInputDrafts((state) => state.drafts[chatId]);
  if (!drafts || message.role !== 'assistant') return NONE;
  const finished = new Set(message.toolCalls.map((call) => call.id));
  const writing = Object.values(drafts).filter((draft) => draft.messageId === message.id && !finished.has(draft.callId));
  return writing.length ? writing.map(asCall) : NONE;
}

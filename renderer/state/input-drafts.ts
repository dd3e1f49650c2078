import { create } from 'zustand';
import type { ChatStreamEvent, ToolCall } from '../../shared/schemas/chat.js';

type Delta = Extract<ChatStreamEvent, { type: 'tool-call-delta' }>;

/** A call the model is still writing: the tool its name maps to and the argument text so far. */
export interface InputDraft {
  messageId: string;
  callId: string;
  name: string;
  tool?: ToolCall['tool'];
  text: string;
}

/** More argument text than this is not kept for a draft: the finished call carries it all. */
const MAX_DRAFT_CHARS = 1_000_000;

interface InputDrafts {
  /** By chat, then by call. */
  drafts: Record<string, Record<string, InputDraft>>;
  /** A chat's pieces of calls being written, in the order they came (applied once per frame with its other events). */
  apply: (chatId: string, changes: readonly ChatStreamEvent[]) => void;
}

/**
 * Tool calls while the model writes their arguments (MCP Apps show and get
 * them as they arrive, `tool-input-partial`): a window's own view, shown
 * until the chat has the whole call, and gone when the run ends.
 */
export const useInputDrafts = create<InputDrafts>((set) => ({
  drafts: {},
  apply: (chatId, changes) =>
    set((state) => {
      let mine = state.drafts[chatId];
      const started = mine;
      for (const change of changes) {
        // A draft stays until its run ends: the window shows it until the chat it reads has the whole call (that read
        // lands a moment after this store hears of it, and a card gone in between would start its app again).
        if (change.type === 'tool-call-delta') mine = withDelta(mine ?? {}, change);
        else if (change.type === 'finish' || change.type === 'rewind') mine = undefined;
      }
      if (mine === started) return state;
      const { [chatId]: _old, ...others } = state.drafts;
      return { drafts: mine && Object.keys(mine).length ? { ...others, [chatId]: mine } : others };
    }),
}));

function withDelta(drafts: Record<string, InputDraft>, delta: Delta): Record<string, InputDraft> {
  const known = drafts[delta.callId];
  const text = (known?.text ?? '') + delta.argsDelta;
  if (text.length > MAX_DRAFT_CHARS) return drafts;
  return { ...drafts, [delta.callId]: { messageId: delta.messageId, callId: delta.callId, name: delta.name || known?.name || '', ...(delta.tool ? { tool: delta.tool } : known?.tool ? { tool: known.tool } : {}), text } };
}

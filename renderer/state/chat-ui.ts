import { create } from 'zustand';
import { persist } from 'zustand/middleware';
import type { MessageAttachment } from '../../shared/schemas/chat.js';

interface ChatUiState {
  selectedChatId: string | null;
  /** Chats the person deleted a moment ago; hidden while "Undo" is offered. */
  pendingDeletes: string[];
  paletteOpen: boolean;
  /** Text typed after "+" when the palette opened from the message box. */
  paletteQuery: string;
  select: (chatId: string | null) => void;
  openPalette: (query?: string) => void;
  closePalette: () => void;
  markDeleted: (chatId: string) => void;
  unmarkDeleted: (chatId: string) => void;
  /** Resources and prompts picked in the palette, waiting in a chat's message box until it is sent. */
  attachments: Record<string, MessageAttachment[]>;
  attach: (chatId: string, attachment: MessageAttachment) => void;
  detach: (chatId: string, index: number) => void;
  clearAttachments: (chatId: string) => void;
  /** Bumped when the person sends, runs or asks again: that chat's messages go to their end and follow it. */
  followSignal: { chatId: string; count: number };
  followEnd: (chatId: string) => void;
  /** Text a link asked a new chat to start with: the next message box shown takes it (not sent), then it is gone. */
  composerPrefill: string | null;
  prefillComposer: (text: string | null) => void;
}

/** What the chat screen shows; the chats themselves live in react-query. */
export const useChatUi = create<ChatUiState>()(
  persist(
    (set) => ({
      selectedChatId: null,
      composerPrefill: null,
      prefillComposer: (composerPrefill) => set({ composerPrefill }),
      pendingDeletes: [],
      paletteOpen: false,
      paletteQuery: '',
      select: (selectedChatId) => set({ selectedChatId }),
      openPalette: (paletteQuery = '') => set({ paletteOpen: true, paletteQuery }),
      closePalette: () => set({ paletteOpen: false, paletteQuery: '' }),
      markDeleted: (chatId) => set((state) => ({ pendingDeletes: [...state.pendingDeletes, chatId] })),
      unmarkDeleted: (chatId) => set((state) => ({ pendingDeletes: state.pendingDeletes.filter((id) => id !== chatId) })),
      attachments: {},
      attach: (chatId, attachment) => set((state) => ({ attachments: { ...state.attachments, [chatId]: [...(state.attachments[chatId] ?? []), attachment] } })),
      detach: (chatId, index) => set((state) => ({ attachments: { ...state.attachments, [chatId]: (state.attachments[chatId] ?? []).filter((_, at) => at !== index) } })),
      clearAttachments: (chatId) => set((state) => ({ attachments: { ...state.attachments, [chatId]: [] } })),
      followSignal: { chatId: '', count: 0 },
      followEnd: (chatId) => set((state) => ({ followSignal: { chatId, count: state.followSignal.count + 1 } })),
    }),
    { name: 'toolbelt.chat-ui', version: 1, partialize: (state) => ({ selectedChatId: state.selectedChatId }) },
  ),
);

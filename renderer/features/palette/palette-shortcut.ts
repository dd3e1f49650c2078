import { useEffect } from 'react';
import { useChats } from '../../queries/chats.js';
import { useChatUi } from '../../state/chat-ui.js';
import { useUiStore } from '../../state/ui.js';

/**
 * Ctrl+K (⌘K) opens the tool palette from any screen: runs land in a chat,
 * so it goes to Chat, into the open chat or else the newest one. With no
 * chat at all, Chat's empty state offers to start one. Inside a code editor
 * Ctrl+K begins the editor's own key chords, so it is left to the editor.
 */
export function usePaletteShortcut(): void {
  const goTo = useUiStore((state) => state.goTo);
  const chats = useChats().data;
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (!(event.ctrlKey || event.metaKey) || event.altKey || event.shiftKey || event.key.toLowerCase() !== 'k') return;
      if (event.target instanceof Element && event.target.closest('.monaco-editor')) return;
      event.preventDefault();
      const { selectedChatId, pendingDeletes, select, openPalette } = useChatUi.getState();
      goTo('chat');
      const open = chats?.find((chat) => chat.id === selectedChatId && !pendingDeletes.includes(chat.id)) ?? chats?.find((chat) => !pendingDeletes.includes(chat.id));
      if (!open) return;
      if (open.id !== selectedChatId) select(open.id);
      openPalette();
    };
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, [goTo, chats]);
}

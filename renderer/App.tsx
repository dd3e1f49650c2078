import { LeaveDialog } from './components/LeaveDialog.js';
import { Sidebar } from './components/Sidebar.js';
import { StatusBar } from './components/StatusBar.js';
import { ChatScreen } from './features/chat/ChatScreen.js';
import { usePaletteShortcut } from './features/palette/palette-shortcut.js';
import { LiveQuestionDialog } from './features/questions/LiveQuestionDialog.js';
import { InstallHost } from './features/install/InstallHost.js';
import { SettingsScreen } from './features/settings/SettingsScreen.js';
import { ToolsScreen } from './features/tools/ToolsScreen.js';
import { useLanguageAttribute, useThemeAttribute } from './hooks.js';
import { useTranslation } from 'react-i18next';
import { useChatEvents, useChats } from './queries/chats.js';
import type { ScreenBadge } from './components/Sidebar.js';
import { useStoreEvents } from './queries/tools.js';
import { useUiStore } from './state/ui.js';

const SCREEN_COMPONENTS = { chat: ChatScreen, tools: ToolsScreen, settings: SettingsScreen };

export function App() {
  const screen = useUiStore((state) => state.screen);
  const theme = useUiStore((state) => state.theme);
  const language = useUiStore((state) => state.language);
  // Core events keep every screen's data current, whichever screen is open.
  useStoreEvents();
  useChatEvents();
  usePaletteShortcut();
  useThemeAttribute(theme);
  useLanguageAttribute(language);
  const { t } = useTranslation();
  const Current = SCREEN_COMPONENTS[screen];
  const badges = useWaitingChatsBadge();
  return (
    <div className="app-frame">
      <a className="skip-link" href="#main">
        {t('app.skipToContent')}
      </a>
      <Sidebar badges={badges} />
      <main id="main" className="app-frame__main">
        <Current />
      </main>
      <StatusBar />
      <LiveQuestionDialog />
      <LeaveDialog />
      <InstallHost />
    </div>
  );
}

/** Chats waiting for an approval or an answer, on the Chat item wherever the person is. */
function useWaitingChatsBadge(): { chat?: ScreenBadge } {
  const chats = useChats();
  const { t } = useTranslation();
  const waiting = (chats.data ?? []).filter((chat) => chat.status === 'awaiting_approval' || chat.status === 'awaiting_user').length;
  if (waiting === 0) return {};
  return { chat: { count: waiting, label: t('app.chatsWaiting', { count: waiting }) } };
}

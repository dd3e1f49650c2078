import { create } from 'zustand';
import { persist } from 'zustand/middleware';
import { guarded } from './leave-guard.js';

export type Screen = 'chat' | 'tools' | 'settings';
export type ThemePreference = 'system' | 'light' | 'dark';

export const SCREENS: readonly { id: Screen; label: string; shortcut: string }[] = [
  { id: 'chat', label: 'Chat', shortcut: '1' },
  { id: 'tools', label: 'Tools', shortcut: '2' },
  { id: 'settings', label: 'Settings', shortcut: '3' },
];

interface UiState {
  screen: Screen;
  theme: ThemePreference;
  goTo: (screen: Screen) => void;
  setTheme: (theme: ThemePreference) => void;
}

/** UI-only state; anything the core owns lives in react-query instead. */
export const useUiStore = create<UiState>()(
  persist(
    (set) => ({
      screen: 'chat',
      theme: 'system',
      goTo: guarded((screen: Screen) => set({ screen })),
      setTheme: (theme) => set({ theme }),
    }),
    { name: 'toolbelt.ui', version: 1 },
  ),
);

import { create } from 'zustand';
import { persist } from 'zustand/middleware';
import { guarded } from './leave-guard.js';
import type { LanguagePreference } from '../i18n/languages.js';

export type Screen = 'chat' | 'tools' | 'settings';
export type ThemePreference = 'system' | 'light' | 'dark';

/** The screens in their order; each one's name is the catalogue's `screens.<id>`. */
export const SCREENS: readonly { id: Screen; shortcut: string }[] = [
  { id: 'chat', shortcut: '1' },
  { id: 'tools', shortcut: '2' },
  { id: 'settings', shortcut: '3' },
];

interface UiState {
  screen: Screen;
  theme: ThemePreference;
  language: LanguagePreference;
  goTo: (screen: Screen) => void;
  setTheme: (theme: ThemePreference) => void;
  setLanguage: (language: LanguagePreference) => void;
}

/** UI-only state; anything the core owns lives in react-query instead. */
export const useUiStore = create<UiState>()(
  persist(
    (set) => ({
      screen: 'chat',
      theme: 'system',
      language: 'system',
      goTo: guarded((screen: Screen) => set({ screen })),
      setTheme: (theme) => set({ theme }),
      setLanguage: (language) => set({ language }),
    }),
    { name: 'toolbelt.ui', version: 1 },
  ),
);

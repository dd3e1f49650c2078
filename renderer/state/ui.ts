import { create } from 'zustand';
import { persist } from 'zustand/middleware';
import { guarded } from './leave-guard.js';
import type { LanguagePreference } from '../i18n/languages.js';

export type Screen = 'chat' | 'tools' | 'settings';
export type ThemePreference = 'system' | 'light' | 'dark';

/** Settings' sections, each its own page, in their order; each one's name is the catalogue's `settings.nav.<id>`. */
export const SETTINGS_SECTIONS = ['providers', 'secrets', 'access', 'tools', 'hooks', 'mcp', 'appearance', 'about'] as const;
export type SettingsSection = (typeof SETTINGS_SECTIONS)[number];

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
  settingsSection: SettingsSection;
  goTo: (screen: Screen) => void;
  /** Settings, at one section: "Add one in Settings" lands on Providers, not wherever Settings was left, its form open. */
  openSettings: (section: SettingsSection, options?: { addProvider?: boolean }) => void;
  /** Settings was opened to add a provider: the Providers section opens its form once (not kept across reloads). */
  addingProvider: boolean;
  providerFormOpened: () => void;
  showSettingsSection: (section: SettingsSection) => void;
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
      settingsSection: 'providers',
      goTo: guarded((screen: Screen) => set({ screen })),
      openSettings: guarded((settingsSection: SettingsSection, options?: { addProvider?: boolean }) => set({ screen: 'settings', settingsSection, addingProvider: options?.addProvider === true })),
      addingProvider: false,
      providerFormOpened: () => set({ addingProvider: false }),
      showSettingsSection: (settingsSection) => set({ settingsSection }),
      setTheme: (theme) => set({ theme }),
      setLanguage: (language) => set({ language }),
    }),
    { name: 'toolbelt.ui', version: 1, partialize: ({ screen, theme, language, settingsSection }) => ({ screen, theme, language, settingsSection }) },
  ),
);

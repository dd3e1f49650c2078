import { useEffect } from 'react';
import { SCREENS, useUiStore, type ThemePreference } from './state/ui.js';
import { applyLanguage } from './i18n/index.js';
import { resolveLanguage, type LanguagePreference } from './i18n/languages.js';

/**
 * Ctrl/Cmd+1..3 switch screens, Ctrl/Cmd+, opens Settings; focus moves to the new screen's heading. Installed when
 * the page starts (renderer/main.tsx), before the first render: a key pressed while the window is still drawing
 * itself is not lost (the screen it chose is the one drawn). Answers how to take it away again.
 */
export function installScreenShortcuts(): () => void {
  const onKeyDown = (event: KeyboardEvent) => {
    if (!(event.ctrlKey || event.metaKey) || event.altKey || event.shiftKey) return;
    const target = event.key === ',' ? 'settings' : SCREENS.find((screen) => screen.shortcut === event.key)?.id;
    if (!target) return;
    event.preventDefault();
    // The screen already shown: nothing moves, the focus least of all (it went to a hidden heading, and Tab started over).
    if (useUiStore.getState().screen === target) return;
    const focusedBefore = document.activeElement;
    useUiStore.getState().goTo(target);
    // The new screen's heading takes focus once drawn, unless the person has already moved it (clicked or tabbed
    // into a field): a slow frame must not pull the caret out of what they are typing in.
    requestAnimationFrame(() => {
      if (document.activeElement !== focusedBefore && document.activeElement !== document.body) return;
      document.querySelector<HTMLElement>('[data-screen-heading]')?.focus();
    });
  };
  window.addEventListener('keydown', onKeyDown);
  return () => window.removeEventListener('keydown', onKeyDown);
}

/** Applies the chosen theme; "system" leaves it to prefers-color-scheme. */
export function useThemeAttribute(theme: ThemePreference): void {
  useEffect(() => {
    const root = document.documentElement;
    if (theme === 'system') root.removeAttribute('data-theme');
    else root.setAttribute('data-theme', theme);
  }, [theme]);
}

/** Applies the chosen language ("system" reads the browser's list), its direction with it. */
export function useLanguageAttribute(language: LanguagePreference): void {
  useEffect(() => applyLanguage(resolveLanguage(language, navigator.languages)), [language]);
}

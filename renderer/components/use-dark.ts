import { useEffect, useState } from 'react';
import { useUiStore } from '../state/ui.js';

const DARK_QUERY = '(prefers-color-scheme: dark)';

/**
 * Whether the window is dark: the theme chosen in Settings, or the system's,
 * followed as it changes (the page's CSS follows it by itself; code editors
 * and MCP Apps are told).
 */
export function useDark(): boolean {
  const theme = useUiStore((state) => state.theme);
  const [systemDark, setSystemDark] = useState(() => window.matchMedia(DARK_QUERY).matches);
  useEffect(() => {
    const query = window.matchMedia(DARK_QUERY);
    const follow = () => setSystemDark(query.matches);
    query.addEventListener('change', follow);
    return () => query.removeEventListener('change', follow);
  }, []);
  return theme === 'system' ? systemDark : theme === 'dark';
}

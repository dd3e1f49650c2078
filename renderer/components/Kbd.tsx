import { i18n } from '../i18n/index.js';

export const isMac = typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.platform);

/** A shortcut as the platform and the language write it: ⌘⇧O on macOS, Ctrl+Shift+O elsewhere (Strg+Umschalt+O in German). */
export function shortcutLabel(key: string): string {
  const shifted = key.startsWith('Shift+');
  const base = shifted ? key.slice('Shift+'.length) : key;
  if (isMac) return `⌘${shifted ? '⇧' : ''}${base}`;
  return [i18n.t('keys.ctrl'), shifted ? i18n.t('keys.shift') : null, base].filter(Boolean).join('+');
}

export function Kbd({ shortcut }: { shortcut: string }) {
  return <kbd className="kbd">{shortcutLabel(shortcut)}</kbd>;
}

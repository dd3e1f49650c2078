const isMac = typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.platform);

/** A shortcut as the platform writes it: ⌘1 on macOS, Ctrl+1 elsewhere. */
export function shortcutLabel(key: string): string {
  return isMac ? `⌘${key}` : `Ctrl+${key}`;
}

export function Kbd({ shortcut }: { shortcut: string }) {
  return <kbd className="kbd">{shortcutLabel(shortcut)}</kbd>;
}

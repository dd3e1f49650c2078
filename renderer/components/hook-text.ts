import { readHookFile, type ReadHookFile } from '../../shared/hooks/hook-files.js';

/** The platform whose command a VS Code or Copilot hook names for it, as Node names it (the core runs it on this machine). */
const PLATFORM = /^win/i.test(navigator.platform) ? 'win32' : /^mac/i.test(navigator.platform) ? 'darwin' : 'linux';

/**
 * What was typed, as hooks: a `hooks` block or a whole `.claude/settings.json`, or another app's hook file
 * (VS Code's `.github/hooks/*.json`, Copilot's, Cursor's `.cursor/hooks.json`) read into the same shape.
 * Empty text is no hooks. The core checks the rest when they are saved.
 */
export function readHookText(text: string): ReadHookFile | { problem: string } {
  if (!text.trim()) return { kind: 'claude', hooks: {}, skipped: [] };
  try {
    return readHookFile(JSON.parse(text), PLATFORM);
  } catch (error) {
    return { problem: (error as Error).message };
  }
}

/** Another app's file read into Claude Code's shape: which app, and the events it had that nothing here runs. */
export interface ConvertedHooks {
  kind: 'vscode' | 'copilot' | 'cursor';
  skipped: string[];
}

export function convertedOf(read: ReadHookFile): ConvertedHooks | null {
  return read.kind === 'claude' ? null : { kind: read.kind, skipped: read.skipped.map((skip) => skip.event) };
}

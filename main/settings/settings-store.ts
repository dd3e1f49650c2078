import { statSync } from 'node:fs';
import Conf from 'conf';
import { SHIPPED_ALLOWED_HOSTS } from '../../builtins/index.js';
import { ToolbeltError } from '../../shared/errors.js';
import type { Settings, SettingsPatch } from '../../shared/schemas/settings.js';
import type { Logger } from '../log.js';

export const DEFAULT_SETTINGS: Settings = {
  allowedHosts: [...SHIPPED_ALLOWED_HOSTS],
  readableFolders: [],
  theme: 'system',
};

export interface SettingsStore {
  get(): Settings;
  patch(patch: SettingsPatch): Settings;
}

/**
 * Settings on `conf` (electron-store's engine: atomic writes, one JSON file).
 * A settings.json that cannot be read is reported and left as it is: the app
 * runs on defaults and refuses to save over it.
 */
export function createSettingsStore(dataDir: string, log: Logger): SettingsStore {
  let conf: Conf<Settings> | null = null;
  let problem: string | null = null;
  try {
    conf = new Conf<Settings>({
      cwd: dataDir,
      configName: 'settings',
      defaults: DEFAULT_SETTINGS,
      clearInvalidConfig: false,
      accessPropertiesByDotNotation: false,
    });
  } catch (error) {
    problem = (error as Error).message;
    log.warn('settings.json is unreadable; running on defaults', { error: problem });
  }

  // conf reads its file on every access, and settings are read on every
  // tool call: keep them, and look at the file's date at most once a second
  // for changes made by another Toolbelt process.
  let cached: { mtimeMs: number; checkedAt: number; settings: Settings } | null = null;
  const current = (): Settings => {
    const now = Date.now();
    if (cached && now - cached.checkedAt < 1_000) return cached.settings;
    const mtimeMs = conf ? (statSync(conf.path, { throwIfNoEntry: false })?.mtimeMs ?? 0) : 0;
    if (cached?.mtimeMs === mtimeMs) cached.checkedAt = now;
    else cached = { mtimeMs, checkedAt: now, settings: { ...DEFAULT_SETTINGS, ...conf?.store } };
    return cached.settings;
  };

  return {
    get: current,
    patch(patch) {
      if (!conf) {
        throw new ToolbeltError('file_invalid', `settings.json in ${dataDir} is invalid (${problem}). Fix or remove it, then try again.`);
      }
      const next = { ...current(), ...patch };
      conf.store = next;
      cached = null;
      return next;
    },
  };
}

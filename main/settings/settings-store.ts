import { lstatSync, statSync } from 'node:fs';
import path from 'node:path';
import Conf from 'conf';
import { ToolbeltError, type ValidationIssue } from '../../shared/errors.js';
import type { FileProblem } from '../../shared/schemas/file-problem.js';
import { SettingsSchema, type Settings, type SettingsPatch } from '../../shared/schemas/settings.js';
import { compile, createAjv, describeIssues, issuesFrom } from '../common/validation.js';
import { PRIVATE_FILE_MODE } from '../common/json-files.js';
import type { Logger } from '../log.js';

/** Settings before the person changes any; the hosts of the tools shipped with the app are allowed (core.ts says which). */
export function defaultSettings(shippedHosts: readonly string[]): Settings {
  return { allowedHosts: [...shippedHosts], readableFolders: [], theme: 'system' };
}

const LINK_REASON = 'it is a symbolic link; Toolbelt neither reads nor writes through links, so replace it with the file itself';

export interface SettingsStore {
  get(): Settings;
  /** Why settings.json cannot be used (the app then runs on defaults), or null. */
  problem(): FileProblem | null;
  patch(patch: SettingsPatch): Settings;
}

/**
 * Settings on `conf` (electron-store's engine: atomic writes, one JSON file).
 * A settings.json that cannot be read or does not hold settings is reported
 * (file and reason) and left as it is: the app runs on defaults and refuses
 * to save over it. Another process may change the file at any time, so each
 * read can find it broken or mended.
 */
export function createSettingsStore(dataDir: string, log: Logger, shippedHosts: readonly string[]): SettingsStore {
  const DEFAULT_SETTINGS = defaultSettings(shippedHosts);
  const file = path.join(dataDir, 'settings.json');
  const validate = compile(createAjv({ strict: false }), SettingsSchema);
  const isLink = () => lstatSync(file, { throwIfNoEntry: false })?.isSymbolicLink() ?? false;
  let conf: Conf<Settings> | null = null;
  let openProblem: string | null = null;
  // Tried again whenever the file changes, so a file fixed by hand is picked up without a restart.
  const open = () => {
    try {
      // conf writes missing defaults into the file as it opens it: never through a link.
      if (isLink()) throw Object.assign(new Error('a symbolic link'), { code: 'ELOOP' });
      conf = new Conf<Settings>({
        cwd: dataDir,
        configName: 'settings',
        defaults: DEFAULT_SETTINGS,
        clearInvalidConfig: false,
        configFileMode: PRIVATE_FILE_MODE,
        accessPropertiesByDotNotation: false,
      });
      openProblem = null;
    } catch (error) {
      openProblem = reasonOf(error);
    }
  };
  open();

  const read = (): { settings: Settings; problem: FileProblem | null } => {
    if (!conf) open();
    if (!conf) return { settings: DEFAULT_SETTINGS, problem: { file, reason: openProblem! } };
    // conf would read and write through a link, to wherever it points.
    if (isLink()) return { settings: DEFAULT_SETTINGS, problem: { file, reason: LINK_REASON } };
    let stored: unknown;
    try {
      stored = conf.store;
    } catch (error) {
      return { settings: DEFAULT_SETTINGS, problem: { file, reason: reasonOf(error) } };
    }
    const settings = { ...DEFAULT_SETTINGS, ...(stored as Partial<Settings>) };
    if (!validate(settings)) {
      return { settings: DEFAULT_SETTINGS, problem: { file, reason: `it does not hold valid settings: ${describeIssues(issuesFrom(validate.errors))}` } };
    }
    return { settings, problem: null };
  };

  // Settings are read on every tool call: keep them, and look at the file's
  // date at most once a second for changes made by another process.
  let cached: { mtimeMs: number; checkedAt: number; settings: Settings; problem: FileProblem | null } | null = null;
  const current = () => {
    const now = Date.now();
    if (cached && now - cached.checkedAt < 1_000) return cached;
    const mtimeMs = statSync(file, { throwIfNoEntry: false })?.mtimeMs ?? 0;
    if (cached?.mtimeMs === mtimeMs) cached.checkedAt = now;
    else {
      cached = { mtimeMs, checkedAt: now, ...read() };
      if (cached.problem) log.warn('settings.json cannot be used; running on defaults', { ...cached.problem });
    }
    return cached;
  };

  return {
    get: () => current().settings,
    problem: () => current().problem,
    patch(patch) {
      const { settings, problem } = current();
      if (!conf || problem) {
        const reason = problem?.reason ?? openProblem!;
        throw new ToolbeltError('file_invalid', `${file} cannot be used (${reason}). Fix or remove it, then try again.`, { file, reason });
      }
      refuseNewEntries(settings, patch);
      const next = { ...settings, ...patch };
      conf.store = next;
      cached = null;
      return next;
    },
  };
}

function reasonOf(error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ELOOP') return LINK_REASON;
  if (error instanceof SyntaxError) return `it is not valid JSON: ${error.message}`;
  return code ? `it cannot be read (${code})` : (error as Error).message;
}

/**
 * What the schema cannot say about entries a person adds: a port past 65535,
 * a folder given as a relative path, or one that is not there. Entries
 * already in the list are left alone (a folder deleted since must not block
 * removing another).
 */
function refuseNewEntries(current: Settings, patch: SettingsPatch): void {
  const issues: ValidationIssue[] = [];
  for (const [index, host] of (patch.allowedHosts ?? []).entries()) {
    if (current.allowedHosts.includes(host)) continue;
    const port = /:(\d+)$/.exec(host)?.[1];
    if (port !== undefined && (Number(port) < 1 || Number(port) > 65535)) {
      issues.push({ path: `/allowedHosts/${index}`, message: `${host} has port ${port}; a port is a number from 1 to 65535.` });
    }
  }
  for (const [index, folder] of (patch.readableFolders ?? []).entries()) {
    if (current.readableFolders.includes(folder)) continue;
    const at = `/readableFolders/${index}`;
    if (!path.isAbsolute(folder)) {
      issues.push({ path: at, message: `"${folder}" is not a full path; give the folder's whole path, such as ${process.platform === 'win32' ? 'C:\\Users\\me\\notes' : '/home/me/notes'}.` });
      continue;
    }
    const info = statSync(folder, { throwIfNoEntry: false });
    if (!info) issues.push({ path: at, message: `${folder} does not exist.` });
    else if (!info.isDirectory()) issues.push({ path: at, message: `${folder} is a file, not a folder.` });
  }
  if (issues.length > 0) throw new ToolbeltError('invalid_params', issues.map((issue) => issue.message).join(' '), { issues });
}

/**
 * Hook files of the apps people already use, read into Toolbelt's hooks (Claude Code's shape):
 * - Claude Code: `.claude/settings.json` (or its `hooks` block), taken as it is;
 * - VS Code: `.github/hooks/*.json`, `{ "hooks": { "PreToolUse": [ { "type": "command", "command": … } ] } }`,
 *   handlers listed straight under each event (no matcher), with per-platform commands;
 * - GitHub Copilot: the same folder with `"version": 1`, camel-case events and `bash` commands;
 * - Cursor: `.cursor/hooks.json`, `"version": 1`, camel-case events of its own, `{ "command", "matcher" }`.
 * What no Toolbelt event matches (Cursor's shell and file-edit hooks: Toolbelt runs no shell commands or edits
 * of its own) is listed as skipped, with why. The result is checked by the core like any hooks when saved.
 */

export type HookFileKind = 'claude' | 'vscode' | 'copilot' | 'cursor';

export interface ReadHookFile {
  kind: HookFileKind;
  hooks: Record<string, unknown[]>;
  /** Events of the file Toolbelt has nothing to run at, with why. */
  skipped: { event: string; why: string }[];
}

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Other apps' camel-case events, as Toolbelt's (Claude Code's) name them; a matcher where the event is narrower. */
const CAMEL_EVENTS: Record<string, { event: string; matcher?: string }> = {
  preToolUse: { event: 'PreToolUse' },
  postToolUse: { event: 'PostToolUse' },
  postToolUseFailure: { event: 'PostToolUseFailure' },
  beforeMCPExecution: { event: 'PreToolUse', matcher: 'mcp__.*' },
  afterMCPExecution: { event: 'PostToolUse', matcher: 'mcp__.*' },
  beforeSubmitPrompt: { event: 'UserPromptSubmit' },
  userPromptSubmitted: { event: 'UserPromptSubmit' },
  stop: { event: 'Stop' },
  agentStop: { event: 'Stop' },
  sessionStart: { event: 'SessionStart' },
  subagentStart: { event: 'SubagentStart' },
  subagentStop: { event: 'SubagentStop' },
};

const NOTHING_TO_RUN_AT = 'Toolbelt runs no shell commands, file reads or edits of its own, so nothing would run it';

/** The command for this machine among a handler's per-platform ones (VS Code's `linux`/`osx`/`windows`, Copilot's `bash`/`powershell`). */
function commandOf(handler: Json, platform: string): string | undefined {
  const pick = (key: string) => (typeof handler[key] === 'string' && handler[key] ? (handler[key]) : undefined);
  const own = platform === 'win32' ? (pick('windows') ?? pick('powershell')) : platform === 'darwin' ? (pick('osx') ?? pick('bash')) : (pick('linux') ?? pick('bash'));
  return own ?? pick('command');
}

/** One handler of another app as Toolbelt's: a command, its timeout in seconds. */
function commandHandler(handler: Json, platform: string): Json {
  const command = commandOf(handler, platform);
  const timeout = typeof handler.timeout === 'number' ? handler.timeout : typeof handler.timeoutSec === 'number' ? handler.timeoutSec : undefined;
  return { type: 'command', ...(command !== undefined ? { command } : {}), ...(timeout !== undefined ? { timeout } : {}) };
}

/** Whether an event's entries are Claude Code's matcher groups (`{ matcher, hooks: [...] }`). */
const isGrouped = (entries: unknown[]) => entries.every((entry) => isObject(entry) && Array.isArray(entry.hooks));

export function readHookFile(parsed: unknown, platform: string): ReadHookFile {
  const file = isObject(parsed) ? parsed : {};
  const block = isObject(file.hooks) ? file.hooks : file;
  const events = Object.entries(block).filter((entry): entry is [string, unknown[]] => Array.isArray(entry[1]));
  const camel = events.some(([event]) => /^[a-z]/.test(event));
  if (!camel && events.every(([, entries]) => isGrouped(entries))) return { kind: 'claude', hooks: Object.fromEntries(events), skipped: [] };
  const kind: HookFileKind = !camel ? 'vscode' : events.some(([, entries]) => entries.some((entry) => isObject(entry) && ('bash' in entry || 'powershell' in entry))) ? 'copilot' : 'cursor';
  const hooks: Record<string, unknown[]> = {};
  const skipped: ReadHookFile['skipped'] = [];
  for (const [name, entries] of events) {
    const target = camel ? CAMEL_EVENTS[name] : { event: name };
    if (!target) {
      skipped.push({ event: name, why: NOTHING_TO_RUN_AT });
      continue;
    }
    const groups = (hooks[target.event] ??= []);
    if (!camel && isGrouped(entries)) {
      groups.push(...entries);
      continue;
    }
    for (const entry of entries.filter(isObject)) {
      // Cursor names a matcher per command; VS Code and Copilot run every command for every tool.
      const matcher = typeof entry.matcher === 'string' && entry.matcher ? entry.matcher : target.matcher;
      groups.push({ ...(matcher ? { matcher } : {}), hooks: [commandHandler(entry, platform)] });
    }
  }
  return { kind, hooks, skipped };
}

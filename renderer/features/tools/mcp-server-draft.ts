/**
 * An MCP server's config as the form edits it: a command with its arguments
 * and environment, or a URL with its headers, as lines people type, and
 * whether its tools ask first. Fields the form has no control for (cwd,
 * oauth, …) ride along unchanged,
 * so the form and the JSON beside it never lose anything of each other.
 */
export interface ServerDraft {
  name: string;
  kind: 'command' | 'url';
  command: string;
  /** One argument a line: an argument may hold spaces. */
  args: string;
  /** KEY=value, a line each. */
  env: string;
  url: string;
  /** Name: value, a line each. */
  headers: string;
  /** What else the config holds, kept as it is. */
  rest: Record<string, unknown>;
}

export const EMPTY_DRAFT: ServerDraft = { name: '', kind: 'command', command: '', args: '', env: '', url: '', headers: '', rest: {} };

const lines = (text: string) => text.split('\n').map((line) => line.trim()).filter((line) => line !== '');

function pairs(text: string, separator: RegExp): Record<string, string> | undefined {
  const entries = lines(text).flatMap((line): [string, string][] => {
    const match = separator.exec(line);
    return match ? [[line.slice(0, match.index).trim(), line.slice(match.index + match[0].length).trim()]] : [[line, '']];
  });
  return entries.length ? Object.fromEntries(entries) : undefined;
}

const isRecord = (value: unknown): value is Record<string, unknown> => Boolean(value) && typeof value === 'object' && !Array.isArray(value);
const asText = (value: unknown) => (typeof value === 'string' ? value : '');

/** The config the form's fields say (what the core checks, and what the JSON view shows). */
export function configOf(draft: ServerDraft): Record<string, unknown> {
  if (draft.kind === 'command') {
    const args = lines(draft.args);
    const env = pairs(draft.env, /=/);
    return { command: draft.command.trim(), ...(args.length ? { args } : {}), ...(env ? { env } : {}), ...draft.rest };
  }
  const headers = pairs(draft.headers, /:/);
  return { url: draft.url.trim(), ...(headers ? { headers } : {}), ...draft.rest };
}

/** The form's fields for one server's config, as pasted or typed in the JSON view. */
export function draftOf(name: string, config: unknown): ServerDraft {
  const { command, args, env, url, headers, ...rest } = isRecord(config) ? config : {};
  const textOf = (record: unknown, separator: string) =>
    isRecord(record)
      ? Object.entries(record)
          .map(([key, value]) => `${key}${separator}${asText(value)}`)
          .join('\n')
      : '';
  return {
    name,
    kind: url !== undefined && command === undefined ? 'url' : 'command',
    command: asText(command),
    args: Array.isArray(args) ? args.map(asText).join('\n') : '',
    env: textOf(env, '='),
    url: asText(url),
    headers: textOf(headers, ': '),
    rest,
  };
}

/** The JSON view's text for the form: the `mcpServers` document other apps use, so it can be copied out too. */
export function documentOf(draft: ServerDraft): string {
  return JSON.stringify({ mcpServers: { [draft.name.trim() || 'server']: configOf(draft) } }, null, 2);
}

/**
 * Which of a server's tools ask before a model runs them (`askFirst`):
 * `ask` (the default: the server's own marks only add caution), or the
 * person's trust in its marks (`as-annotated`), in the server (`never`), or
 * asking for its apps' own calls too (`always`).
 */
export const ASK_FIRST_CHOICES = ['ask', 'as-annotated', 'never', 'always'] as const;
export type AskFirstChoice = (typeof ASK_FIRST_CHOICES)[number];

export function askFirstOf(draft: ServerDraft): AskFirstChoice {
  const said = draft.rest.askFirst;
  return ASK_FIRST_CHOICES.find((choice) => choice !== 'ask' && choice === said) ?? 'ask';
}

/** The draft with that choice; the default is no field at all, as a config written by hand has it. */
export function withAskFirst(draft: ServerDraft, choice: AskFirstChoice): ServerDraft {
  const { askFirst: _previous, ...rest } = draft.rest;
  return { ...draft, rest: choice === 'ask' ? rest : { ...rest, askFirst: choice } };
}

type JsonSchema = Record<string, unknown>;

/** The characters of a tool's name (ToolNameSchema): an MCP tool's `get_sum` or `files.read` as well as a slug. */
const NAME_CHARS = '[\\p{L}\\p{M}\\p{Nd}._-]';
const TYPING_NAME = new RegExp(`^\\+(${NAME_CHARS}*)$`, 'u');
const QUICK_RUN = new RegExp(`^\\+(${NAME_CHARS}+)(?:\\s+(.*))?$`, 'su');

/** The name being typed after a leading "+" (no space yet), or null when the box holds something else. */
export function typedSlug(text: string): string | null {
  const match = TYPING_NAME.exec(text);
  return match ? match[1]! : null;
}

/** `+slug key=value key2="two words"` as typed in the message box; null when it is not one. */
export function parseQuickRun(text: string): { slug: string; pairs: Record<string, string> } | null {
  const match = QUICK_RUN.exec(text.trim());
  if (!match) return null;
  const pairs: Record<string, string> = {};
  const rest = match[2] ?? '';
  const pair = /([A-Za-z_][\w-]*)=("((?:[^"\\]|\\.)*)"|'([^']*)'|(\S+))\s*/gy;
  let consumed = 0;
  for (let found = pair.exec(rest); found; found = pair.exec(rest)) {
    pairs[found[1]!] = found[3] !== undefined ? found[3].replace(/\\(.)/g, '$1') : (found[4] ?? found[5] ?? '');
    consumed = pair.lastIndex;
  }
  if (rest.slice(consumed).trim() !== '') return null;
  return { slug: match[1]!, pairs };
}

function coerce(text: string, schema: JsonSchema | undefined): unknown {
  const type = schema?.type;
  if (type === 'integer' || type === 'number') {
    const number = Number(text);
    return text.trim() !== '' && Number.isFinite(number) ? number : text;
  }
  if (type === 'boolean') return text === 'true' ? true : text === 'false' ? false : text;
  if (type === 'array' || type === 'object') {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      return type === 'array' ? text.split(',').map((item) => item.trim()) : text;
    }
  }
  return text;
}

/** Typed values for the pairs, by the tool's argSchema, and the required arguments still missing. */
export function quickRunArgs(argSchema: JsonSchema, pairs: Record<string, string>): { args: Record<string, unknown>; missing: string[] } {
  const properties = (argSchema.properties ?? {}) as Record<string, JsonSchema>;
  const args = Object.fromEntries(Object.entries(pairs).map(([key, value]) => [key, coerce(value, properties[key])]));
  const required = Array.isArray(argSchema.required) ? (argSchema.required as string[]) : [];
  return { args, missing: required.filter((name) => !(name in args) && properties[name]?.default === undefined) };
}

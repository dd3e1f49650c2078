import type { ToolView } from '../../../../shared/schemas/tool.js';

/** What the editor edits: a tool document including its slug and version. */
export type Draft = Record<string, unknown> & { slug: string; version: string };

const STORE_OWNED = ['schemaVersion', 'toolID', 'bundleID', 'isBuiltIn', 'createdAt', 'modifiedAt', 'status', 'usage', 'available', 'unavailableReason', 'blockedReason', 'readOnly'];

export function newHttpDraft(): Draft {
  return {
    slug: '',
    version: 'v1',
    displayName: '',
    description: '',
    tags: [],
    type: 'http',
    isEnabled: true,
    argSchema: { type: 'object', properties: {}, required: [] },
    impl: { method: 'GET', urlTemplate: 'https://' },
  };
}

/** A saved tool as a draft: the store's own fields left out. */
export function draftFrom(tool: ToolView): Draft {
  const copy: Record<string, unknown> = structuredClone(tool);
  for (const key of STORE_OWNED) delete copy[key];
  return copy as Draft;
}

/** The body of tools.put: the draft without its address. */
export function toolBody(draft: Draft): Record<string, unknown> {
  const { slug: _slug, version: _version, ...body } = draft;
  return body;
}

/** The next version after `version`: v1 → v2, 1.4.0 → 1.4.1, beta → beta-2. */
export function nextVersion(version: string): string {
  const match = /^(.*?)(\d+)$/.exec(version);
  if (!match) return `${version}-2`;
  return `${match[1]}${Number(match[2]) + 1}`;
}

/** A slug from a display name: lower case, letters and digits, dashes between words. */
export function slugFrom(name: string): string {
  return name
    .normalize('NFC')
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{Nd}]+/gu, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 64);
}

export function getPath(value: unknown, path: string[]): unknown {
  return path.reduce<unknown>((node, key) => (node && typeof node === 'object' ? (node as Record<string, unknown>)[key] : undefined), value);
}

/** A copy of `draft` with the value at `path` replaced (undefined removes it). */
export function setPath(draft: Draft, path: string[], value: unknown): Draft {
  const copy = structuredClone(draft) as Record<string, unknown>;
  let node = copy;
  for (const key of path.slice(0, -1)) {
    if (!node[key] || typeof node[key] !== 'object') node[key] = {};
    node = node[key] as Record<string, unknown>;
  }
  const last = path.at(-1)!;
  if (value === undefined || value === '') delete node[last];
  else node[last] = value;
  return copy as Draft;
}

/**
 * tool.json as text, with the text of fields that do not parse yet put in
 * their place as typed (indented to fit), so switching to the document view
 * carries every keystroke. The result does not parse either, and says where.
 */
export function documentText(draft: Draft, unparsedFields: Record<string, string>): string {
  let copy = draft;
  const marks: [string, string][] = [];
  Object.entries(unparsedFields).forEach(([pointer, text], index) => {
    const mark = `\u0000typed-${index}\u0000`;
    copy = setPath(copy, pointer.split('/').slice(1), mark);
    marks.push([JSON.stringify(mark), text]);
  });
  let out = JSON.stringify(copy, null, 2);
  for (const [quoted, text] of marks) {
    const at = out.indexOf(quoted);
    if (at < 0) continue;
    const indent = /^ */.exec(out.slice(out.lastIndexOf('\n', at) + 1))![0];
    out = out.slice(0, at) + text.trim().split('\n').join(`\n${indent}`) + out.slice(at + quoted.length);
  }
  return out;
}

/** Where JSON.parse stopped, in a sentence: "Not valid JSON: Expected ',' or '}' after property value (line 3, column 5)." */
export function parseProblem(text: string): string | null {
  try {
    JSON.parse(text);
    return null;
  } catch (error) {
    return jsonProblem(error instanceof Error ? error.message : String(error), text);
  }
}

/**
 * JSON.parse's message as one sentence, its place said once. Engines say it differently: "… in JSON at position 14",
 * newer V8 "… after JSON at position 7 (line 1 column 8)", Firefox "JSON.parse: … at line 1 column 8"; the place
 * is worked out here from the position where there is one, and the engine's own words for it are dropped.
 */
export function jsonProblem(said: string, text: string): string {
  const position = /position (\d+)/.exec(said);
  let where = '';
  if (position) {
    const before = text.slice(0, Number(position[1]));
    const line = before.split('\n').length;
    where = ` (line ${line}, column ${before.length - before.lastIndexOf('\n')})`;
  }
  // V8 says "Unexpected token '}', "…text…" is not valid JSON": the quoted text adds nothing here.
  const what = said
    .replace(/ in JSON at position \d+.*$/, '')
    .replace(/ at position \d+.*$/, '')
    .replace(/, .* is not valid JSON$/s, '')
    .replace(/^JSON\.parse: /, '');
  return `Not valid JSON: ${what}${where}. Nothing is lost: fix it here to save.`;
}

/** A draft's field as text: what it holds when it is a string, else nothing (a field typed over as something else). */
export const textOf = (value: unknown): string => (typeof value === 'string' ? value : '');

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

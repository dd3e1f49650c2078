import type { ImportedOperation, ImportPreview } from '../../shared/schemas/imports.js';
import type { ToolFile, ToolInput } from '../../shared/schemas/tool.js';
import type { ConvertedOperation } from './openapi-tools.js';
import { stableJson } from '../common/stable-json.js';

/** What decides whether an imported tool differs from the one in the bundle (not its switch: that is the person's). */
function definitionOf(tool: ToolInput | ToolFile): string {
  const { displayName, description, tags, type, requiresApproval, argSchema, outputSchema, impl } = tool;
  return stableJson({ displayName, description: description ?? '', tags: tags ?? [], type, requiresApproval: requiresApproval ?? false, argSchema, outputSchema, impl });
}

/** `v1`, `v2` → `v3`; a tool with other version names gets the first `vN` not taken. */
function nextVersion(versions: string[]): string {
  const numbers = versions.map((version) => /^v(\d+)$/.exec(version)?.[1]).filter(Boolean).map(Number);
  let next = Math.max(1, ...numbers) + 1;
  while (versions.includes(`v${next}`)) next++;
  return `v${next}`;
}

/**
 * Operations set against the tools a bundle has now: new ones, changed
 * ones (written as a new version beside the old), the same ones (nothing to
 * write), and tools of the bundle the description no longer has.
 */
export function planAgainst(operations: ConvertedOperation[], existing: ToolFile[]): { operations: ImportedOperation[]; gone: ImportPreview['gone'] } {
  const bySlug = new Map<string, ToolFile[]>();
  for (const tool of existing) bySlug.set(tool.slug, [...(bySlug.get(tool.slug) ?? []), tool]);
  const latest = (tools: ToolFile[]) => tools.reduce((newest, tool) => (tool.createdAt > newest.createdAt ? tool : newest));
  const planned = operations.map((operation): ImportedOperation => {
    const versions = bySlug.get(operation.slug);
    if (!versions || !operation.tool) return { ...operation, status: 'new' };
    const current = latest(versions);
    if (definitionOf(current) === definitionOf(operation.tool)) return { ...operation, status: 'same', currentVersion: current.version };
    return { ...operation, status: 'changed', currentVersion: current.version, nextVersion: nextVersion(versions.map((tool) => tool.version)) };
  });
  const imported = new Set(operations.map((operation) => operation.slug));
  const gone = [...bySlug.entries()]
    .filter(([slug]) => !imported.has(slug))
    .map(([, tools]) => latest(tools))
    .map((tool) => ({ slug: tool.slug, version: tool.version, displayName: tool.displayName }));
  return { operations: planned, gone };
}

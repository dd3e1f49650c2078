import { latestOfEach } from '../../shared/tools/tool-versions.js';
import type { Tool } from '@modelcontextprotocol/server';
import { providerSafeName } from '../tools/exposure.js';
import type { ValidTool } from '../store/records.js';
import type { ToolStore } from '../store/tool-store.js';
import type { ToolResolver } from '../tools/resolver.js';

export interface SharedTool {
  /** The name clients call it by: its slug, made unique across the shared bundles. */
  name: string;
  record: ValidTool;
  bundleName: string;
  definition: Tool;
}

/** What a client may assume about a tool from its definition: an HTTP GET reads, a DELETE destroys. */
function annotationsOf(record: ValidTool): Tool['annotations'] {
  const { tool } = record;
  const annotations: NonNullable<Tool['annotations']> = { title: tool.displayName };
  if (tool.type === 'http') {
    const method = tool.impl.method.toUpperCase();
    annotations.readOnlyHint = method === 'GET' || method === 'HEAD';
    if (!annotations.readOnlyHint) annotations.destructiveHint = method === 'DELETE';
    annotations.idempotentHint = method !== 'POST' && method !== 'PATCH';
    annotations.openWorldHint = true;
  }
  // The shipped local tools (the time, a calculator, reading an allowed file, asking the person, searching tools) change nothing.
  if (tool.type === 'local' && tool.isBuiltIn) {
    annotations.readOnlyHint = true;
    annotations.openWorldHint = false;
  }
  return annotations;
}

function objectSchema(schema: Record<string, unknown>): Tool['inputSchema'] {
  const { $schema: _schema, $id: _id, ...rest } = schema;
  return { ...rest, type: 'object' };
}

/**
 * Of the versions of one tool that could be shared, only the latest is: other apps see one tool by one name,
 * as a chat does, not two alike under names told apart by a hash. An older version is shared when it is the
 * only one that can run (the newer ones switched off or broken).
 */
function latestVersionsOnly(candidates: { record: ValidTool }[]): void {
  const byBundle = new Map<string, { slug: string; version: string }[]>();
  for (const { record } of candidates) byBundle.set(record.bundleID, [...(byBundle.get(record.bundleID) ?? []), record.tool]);
  const latest = new Set([...byBundle].flatMap(([bundleID, tools]) => latestOfEach(tools).map((tool) => `${bundleID}/${tool.slug}/${tool.version}`)));
  const keep = candidates.filter(({ record }) => latest.has(`${record.bundleID}/${record.tool.slug}/${record.tool.version}`));
  candidates.splice(0, candidates.length, ...keep);
}

/**
 * The tools an MCP client sees: the enabled, runnable tools of the bundles
 * the person shares, never tools Toolbelt itself takes from MCP servers.
 * Two tools with one name keep it apart by their bundle's slug.
 */
export function listSharedTools(store: ToolStore, resolver: ToolResolver, sharedBundleIDs: ReadonlySet<string>): SharedTool[] {
  const candidates: { record: ValidTool; bundleName: string; bundleSlug: string }[] = [];
  for (const record of store.allTools()) {
    if (record.kind !== 'valid' || record.tool.type === 'mcp' || !sharedBundleIDs.has(record.bundleID)) continue;
    const readiness = resolver.check(record);
    if (!readiness.ok) continue;
    candidates.push({ record: readiness.record, bundleName: readiness.bundle.bundle.displayName, bundleSlug: readiness.bundle.bundle.slug });
  }
  latestVersionsOnly(candidates);
  candidates.sort((a, b) => a.bundleSlug.localeCompare(b.bundleSlug) || a.record.tool.slug.localeCompare(b.record.tool.slug) || a.record.tool.version.localeCompare(b.record.tool.version));
  const counts = new Map<string, number>();
  const baseName = ({ record }: (typeof candidates)[number]) => providerSafeName(record.tool);
  for (const candidate of candidates) counts.set(baseName(candidate), (counts.get(baseName(candidate)) ?? 0) + 1);
  const taken = new Set<string>();
  const shared: SharedTool[] = [];
  for (const candidate of candidates) {
    const { record } = candidate;
    let name = baseName(candidate);
    if (counts.get(name)! > 1) name = providerSafeName({ bundleID: record.bundleID, slug: `${candidate.bundleSlug}.${record.tool.slug}`, version: record.tool.version });
    // A name that still meets another (a slug that reads like another's bundle-prefixed name): the version tells them apart.
    if (taken.has(name)) name = providerSafeName({ bundleID: record.bundleID, slug: `${name}.${record.tool.version}`, version: record.tool.version });
    taken.add(name);
    const { tool } = record;
    shared.push({
      name,
      record,
      bundleName: candidate.bundleName,
      definition: {
        name,
        title: tool.displayName,
        description: tool.description || tool.displayName,
        inputSchema: objectSchema(tool.argSchema),
        ...(tool.outputSchema && typeof tool.outputSchema === 'object' && tool.outputSchema.type === 'object' ? { outputSchema: objectSchema(tool.outputSchema) } : {}),
        annotations: annotationsOf(record),
      },
    });
  }
  return shared;
}

import type { BundleRecord, ValidTool } from '../../store/records.js';
import type { ToolStore } from '../../store/tool-store.js';
import { ToolTextIndex, type IndexedTool } from '../../search/tool-index.js';

const MAX_FIELD = 4_000;

/** Argument names and what they are for, one level into objects: the words a request names its inputs with. */
function argumentText(schema: unknown, depth = 0): string {
  if (!schema || typeof schema !== 'object' || depth > 1) return '';
  const properties = (schema as { properties?: unknown }).properties;
  if (!properties || typeof properties !== 'object') return '';
  const parts: string[] = [];
  for (const [name, property] of Object.entries(properties as Record<string, unknown>).slice(0, 50)) {
    parts.push(name);
    if (property && typeof property === 'object') {
      const { description, title } = property as { description?: unknown; title?: unknown };
      if (typeof title === 'string') parts.push(title);
      if (typeof description === 'string') parts.push(description.slice(0, 300));
      parts.push(argumentText(property, depth + 1));
    }
  }
  return parts.join(' ').slice(0, MAX_FIELD);
}

/** A tool as the index reads it. */
export function documentOf(record: ValidTool, bundle: BundleRecord | undefined): IndexedTool {
  const { tool } = record;
  return {
    toolID: record.toolID,
    name: tool.slug,
    displayName: tool.displayName,
    description: tool.description.slice(0, MAX_FIELD),
    args: argumentText(tool.argSchema),
    tags: tool.tags.join(' '),
    bundle: bundle?.kind === 'valid' ? `${bundle.bundle.displayName} ${bundle.bundle.slug}` : '',
  };
}

/**
 * The catalogue's full-text index, kept in step with the store: when the
 * store's revision moves, only tools whose record (or bundle) object
 * changed are indexed again, and gone ones are dropped.
 */
export class SearchCatalogue {
  private readonly index = new ToolTextIndex();
  private readonly indexed = new Map<string, { record: ValidTool; bundle: BundleRecord | undefined }>();
  private revision = -1;

  constructor(private readonly store: Pick<ToolStore, 'revision' | 'allTools' | 'bundle'>) {}

  /** The best matches for a query among these tools (by tool ID), best first. */
  search(query: string, among: ReadonlySet<string>, limit: number): string[] {
    return this.scored(query, among, limit).map((hit) => hit.toolID);
  }

  /** The same, with each match's relevance (higher is better). */
  scored(query: string, among: ReadonlySet<string>, limit: number): { toolID: string; score: number }[] {
    this.sync();
    return this.index.search(query, among, limit);
  }

  get size(): number {
    this.sync();
    return this.index.size;
  }

  private sync(): void {
    if (this.store.revision === this.revision) return;
    const live = new Set<string>();
    for (const record of this.store.allTools()) {
      if (record.kind !== 'valid') continue;
      live.add(record.toolID);
      const bundle = this.store.bundle(record.bundleID);
      const seen = this.indexed.get(record.toolID);
      if (seen?.record === record && seen.bundle === bundle) continue;
      this.index.put(documentOf(record, bundle));
      this.indexed.set(record.toolID, { record, bundle });
    }
    for (const toolID of this.indexed.keys()) {
      if (live.has(toolID)) continue;
      this.index.remove(toolID);
      this.indexed.delete(toolID);
    }
    this.revision = this.store.revision;
  }
}

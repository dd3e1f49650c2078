import path from 'node:path';
import type { ToolFile } from '../../shared/schemas/tool.js';
import type { StoreLayout } from '../../main/store/layout.js';
import type { BundleRecord, ToolRecord } from '../../main/store/records.js';
import { SwitchOverrides, type ReadOnlySource } from '../../main/store/sources.js';

/**
 * A read-only source whose tools the test sets and changes, shaped like an
 * MCP server's: one bundle, tools that appear and vanish, names with "_"
 * and ".". Its switches are a real file in the data folder.
 */
export function memorySource(layout: StoreLayout, options: { id: string; bundleID: string; displayName: string }) {
  let tools: ToolFile[] = [];
  const listeners = new Set<() => void>();
  const at = '2026-11-23T00:00:00.000Z';
  // Ids like "mcp:weather" make neither a slug nor a portable file name.
  const plain = options.id.replace(/[^A-Za-z0-9-]+/g, '-');
  const source: ReadOnlySource = {
    id: options.id,
    refusal: { code: 'source_readonly', message: (verb) => `${options.displayName} is read-only: you cannot ${verb} it. Only switching its tools on or off is allowed.` },
    switches: new SwitchOverrides(layout, path.join(layout.root, `${plain}-switches.json`), options.id),
    load: () => {
      const bundle: BundleRecord = {
        kind: 'valid',
        bundleID: options.bundleID,
        source: options.id,
        text: '',
        bundle: { schemaVersion: '1', bundleID: options.bundleID, slug: plain, displayName: options.displayName, description: '', isEnabled: true, isBuiltIn: false, createdAt: at, modifiedAt: at },
      };
      const records: ToolRecord[] = tools.map((tool) => ({ kind: 'valid', toolID: tool.toolID, bundleID: options.bundleID, tool, digest: '', source: options.id }));
      return { bundles: [bundle], tools: records };
    },
    subscribe(onChange) {
      listeners.add(onChange);
      return () => listeners.delete(onChange);
    },
  };
  return {
    source,
    /** Replaces the source's tools and tells the store, as a server's list_changed would. */
    setTools(next: ToolFile[]) {
      tools = next;
      for (const listener of listeners) listener();
    },
  };
}

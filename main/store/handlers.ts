import type { Handlers } from '../api/dispatcher.js';
import type { ToolCatalog } from './catalog.js';
import type { ToolStore } from './tool-store.js';
import type { ToolInput, ToolPutInput } from '../../shared/schemas/tool.js';
import { ToolbeltError, type ValidationIssue } from '../../shared/errors.js';

type StoreOperation =
  | 'bundles.put'
  | 'bundles.patch'
  | 'bundles.delete'
  | 'bundles.removeFolder'
  | 'bundles.list'
  | 'tools.put'
  | 'tools.patch'
  | 'tools.delete'
  | 'tools.get'
  | 'tools.metrics'
  | 'tools.list'
  | 'tools.search'
  | 'tools.validate';

/**
 * The store's operations, from validated params to API results. `prepare`
 * completes a definition before it is checked and written (a script tool's
 * schema read from its function, a recipe checked for cycles); it may
 * refuse one with an error.
 */
export function storeHandlers(store: ToolStore, catalog: ToolCatalog, prepare: (tool: ToolPutInput, at: { bundleID?: string; slug?: string }) => Promise<ToolInput> = (tool) => Promise.resolve(tool as ToolInput)): Pick<Handlers, StoreOperation> {
  return {
    'bundles.put': async ({ bundleID, ...input }, context) => {
      const { bundle, created } = await store.putBundle(bundleID, input);
      if (created) context.markCreated?.();
      return valid(catalog.bundleEntry(bundle));
    },
    'bundles.patch': async ({ bundleID, isEnabled, hooksOn }) => {
      let record = hooksOn === undefined ? undefined : await store.switchBundleHooks(bundleID, hooksOn);
      if (isEnabled !== undefined) record = await store.setBundleEnabled(bundleID, isEnabled);
      return valid(catalog.bundleEntry(record ?? (await store.requireBundle(bundleID))));
    },
    'bundles.removeFolder': async ({ bundleID }) => {
      await store.reaper.removeBundleFolder(bundleID);
      return null;
    },
    'bundles.delete': async ({ bundleID }) => {
      await store.softDeleteBundle(bundleID);
      return null;
    },
    'bundles.list': ({ bundleIDs, includeDisabled, pageSize, pageToken }) => {
      const page = catalog.listBundles({ bundleIDs, includeDisabled, pageSize, pageToken });
      return { bundles: page.items, ...(page.nextPageToken ? { nextPageToken: page.nextPageToken } : {}) };
    },
    'tools.put': async ({ bundleID, toolSlug, version, tool }) => {
      const record = await store.putTool(bundleID, toolSlug, version, await prepare(tool, { bundleID, slug: toolSlug }));
      return valid(catalog.entry(record));
    },
    'tools.patch': async ({ bundleID, toolSlug, version, isEnabled }) =>
      catalog.entry(await store.setToolEnabled(bundleID, toolSlug, version, isEnabled)),
    'tools.delete': async ({ bundleID, toolSlug, version }) => {
      await store.deleteTool(bundleID, toolSlug, version);
      return null;
    },
    'tools.get': async ({ bundleID, toolSlug, version }) => catalog.entry(await store.requireTool(bundleID, toolSlug, version)),
    'tools.metrics': async ({ bundleID, toolSlug, version }) => store.usage.figures((await store.requireTool(bundleID, toolSlug, version)).toolID),
    'tools.list': ({ tags, bundleIDs, includeDisabled, recommendedPageSize, pageToken }) => {
      const page = catalog.listTools({ tags, bundleIDs, includeDisabled, pageSize: recommendedPageSize, pageToken });
      return { tools: page.items, ...(page.nextPageToken ? { nextPageToken: page.nextPageToken } : {}) };
    },
    'tools.validate': async ({ bundleID, toolSlug, version, tool }) => {
      // Completed as a write would complete it (a script's schema read from its function): what that refuses is a problem too.
      let prepared: unknown = tool;
      try {
        if (tool && typeof tool === 'object') prepared = await prepare(tool as ToolPutInput, { bundleID, slug: toolSlug });
      } catch (error) {
        if (!(error instanceof ToolbeltError)) throw error;
        const said = (error.details as { issues?: ValidationIssue[] } | undefined)?.issues;
        return { issues: said?.length ? said : [{ path: '', message: error.message }] };
      }
      return { issues: await store.drafts.check(prepared, { bundleID, slug: toolSlug, version }) };
    },
    'tools.search': ({ q, includeDisabled, pageSize, pageToken }) => {
      const page = catalog.searchTools({ q, includeDisabled, pageSize, pageToken });
      return { tools: page.items, ...(page.nextPageToken ? { nextPageToken: page.nextPageToken } : {}) };
    },
  };
}

/** Entries straight after a successful write are valid by construction. */
function valid<T extends { status: string }>(entry: T): Extract<T, { status: 'valid' }> {
  if (entry.status !== 'valid') throw new Error('expected a valid entry after a write');
  return entry as Extract<T, { status: 'valid' }>;
}

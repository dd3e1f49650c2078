import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import type { ParamsOf, ResultOf } from '../../shared/operation.js';
import type { Operations } from '../../shared/operations/index.js';
import { useApi, useCoreTransport } from '../api/context.js';
import { effectiveHttp } from '../../shared/tools/http-inherit.js';
import type { BundleView } from '../../shared/schemas/bundle.js';
import type { BundleHttp, HttpImpl } from '../../shared/schemas/http-impl.js';
import type { ToolView } from '../../shared/schemas/tool.js';
import { toolInputOf } from '../../shared/tools/tool-input.js';

export const toolKeys = {
  all: ['store'] as const,
  bundles: (includeDisabled: boolean) => ['store', 'bundles', includeDisabled] as const,
  search: (q: string, bundleID: string | null, includeDisabled: boolean) => ['store', 'tools', q, bundleID, includeDisabled] as const,
  tool: (bundleID: string, slug: string, version: string) => ['store', 'tool', bundleID, slug, version] as const,
  // Under 'store': a server's tools changing is a store change, and refreshes its status too.
  mcpServers: ['store', 'mcp-servers'] as const,
};

export const settingsKey = ['settings'] as const;

/** Store changes (ours, another window's, an editor's on disk) refresh every store query. */
export function useStoreEvents(): void {
  const transport = useCoreTransport();
  const queryClient = useQueryClient();
  useEffect(
    () =>
      transport.subscribe((event) => {
        if (event.type === 'store.changed') void queryClient.invalidateQueries({ queryKey: toolKeys.all });
      }),
    [transport, queryClient],
  );
}

export function useBundles(includeDisabled = true) {
  const api = useApi();
  return useQuery({
    queryKey: toolKeys.bundles(includeDisabled),
    queryFn: () => api.bundles.list({ includeDisabled, pageSize: 500 }),
  });
}

/** A bundle's name for a person, by ID; undefined while the list loads or when the bundle cannot be read. */
export function useBundleName(): (bundleID: string) => string | undefined {
  const bundles = useBundles(true);
  return (bundleID) => {
    const bundle = bundles.data?.bundles.find((entry) => entry.bundleID === bundleID);
    return bundle?.status === 'valid' ? bundle.displayName : undefined;
  };
}

/** The connection settings a bundle gives its HTTP tools (none while the list loads). */
export function useBundleHttp(bundleID: string): BundleHttp | undefined {
  const bundles = useBundles(true);
  return bundles.data?.bundles.find((entry): entry is BundleView => entry.status === 'valid' && entry.bundleID === bundleID)?.http;
}

/** The request an HTTP tool makes with what its bundle gives it (base URL, sign-in, headers): what Copy as cURL shows. */
export function useEffectiveImpl(bundleID: string, impl: HttpImpl | undefined): HttpImpl | undefined {
  const bundleHttp = useBundleHttp(bundleID);
  // A draft being typed may have no URL yet.
  if (!impl || typeof impl.urlTemplate !== 'string') return impl;
  const effective = effectiveHttp(impl, bundleHttp, []);
  return effective.ok ? effective.impl : impl;
}

const TOOL_PAGE_SIZE = 100;

type ToolPage = ResultOf<Operations['tools.list']>;

/**
 * The tools of a bundle (or of all), ranked by the store's search, a page
 * at a time: the list asks for the next page as it scrolls near the end.
 */
export function useToolPages(q: string, bundleID: string | null, includeDisabled: boolean) {
  const api = useApi();
  return useInfiniteQuery({
    queryKey: toolKeys.search(q, bundleID, includeDisabled),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (page: ToolPage) => page.nextPageToken,
    queryFn: async ({ pageParam }): Promise<ToolPage> => {
      const token = pageParam ? { pageToken: pageParam } : {};
      if (bundleID && !q.trim()) {
        return api.tools.list({ bundleIDs: [bundleID], includeDisabled, recommendedPageSize: TOOL_PAGE_SIZE, ...token });
      }
      const page = await api.tools.search({ q, includeDisabled, pageSize: TOOL_PAGE_SIZE, ...token });
      return bundleID ? { ...page, tools: page.tools.filter((tool) => tool.bundleID === bundleID) } : page;
    },
    placeholderData: (previous) => previous,
  });
}

/** Every valid tool of these bundles, all pages read (for "tick every tool of a bundle" and a chat's chosen tools). */
export async function allToolsOf(api: ReturnType<typeof useApi>, bundleIDs: string[], includeDisabled = false): Promise<ToolView[]> {
  const tools: ToolView[] = [];
  // At most 500 bundles a request; a chat's chosen tools come from fewer than that in practice, and more are read in turns.
  for (let start = 0; start < bundleIDs.length; start += 500) {
    let pageToken: string | undefined;
    do {
      const page = await api.tools.list({ bundleIDs: bundleIDs.slice(start, start + 500), recommendedPageSize: 500, ...(includeDisabled ? { includeDisabled } : {}), ...(pageToken ? { pageToken } : {}) });
      tools.push(...page.tools.filter((tool): tool is ToolView => tool.status === 'valid'));
      pageToken = page.nextPageToken;
    } while (pageToken);
  }
  return tools;
}

/** The tools behind a list of chosen ones (bundle, slug, version), whatever a search shows; null for one no longer here. */
export function useChosenTools(chosen: readonly { bundleID: string; slug: string; version: string }[]) {
  const api = useApi();
  const bundleIDs = [...new Set(chosen.map((entry) => entry.bundleID))].sort();
  return useQuery({
    queryKey: [...toolKeys.all, 'chosen', bundleIDs],
    queryFn: async () => {
      const tools = await allToolsOf(api, bundleIDs);
      return new Map(tools.map((tool) => [`${tool.bundleID}/${tool.slug}/${tool.version}`, tool]));
    },
    enabled: bundleIDs.length > 0,
    placeholderData: (previous) => previous,
  });
}

/**
 * The tools a recipe's steps call: every version of each (switched-off ones
 * too, so the builder can say so), by `bundleID/slug`, oldest first.
 */
export function useRecipeStepTools(bundleIDs: readonly string[]) {
  const api = useApi();
  const ids = [...new Set(bundleIDs)].sort();
  return useQuery({
    queryKey: [...toolKeys.all, 'recipe-steps', ids],
    queryFn: async () => {
      const bySlug = new Map<string, ToolView[]>();
      for (const tool of await allToolsOf(api, ids, true)) {
        const key = `${tool.bundleID}/${tool.slug}`;
        bySlug.set(key, [...(bySlug.get(key) ?? []), tool]);
      }
      return bySlug;
    },
    enabled: ids.length > 0,
    placeholderData: (previous) => previous,
  });
}

/** The tool a step names among those read: the version it names, else the latest. */
export function stepToolOf(tools: ReadonlyMap<string, ToolView[]> | undefined, ref: { bundleID: string; slug: string; version?: string }): ToolView | undefined {
  const versions = tools?.get(`${ref.bundleID}/${ref.slug}`) ?? [];
  if (ref.version !== undefined) return versions.find((tool) => tool.version === ref.version);
  const latest = versions[0]?.versions?.at(-1)?.version;
  return latest === undefined ? versions.at(-1) : versions.find((tool) => tool.version === latest);
}

export function useTool(address: { bundleID: string; slug: string; version: string } | null) {
  const api = useApi();
  return useQuery({
    queryKey: address ? toolKeys.tool(address.bundleID, address.slug, address.version) : ['store', 'tool', 'none'],
    queryFn: () => api.tools.get({ bundleID: address!.bundleID, toolSlug: address!.slug, version: address!.version }),
    enabled: address !== null,
  });
}

/** A change to the catalogue: every store query (bundles, tools, MCP servers) is read again after it. */
export function useStoreMutation<P, R = unknown>(run: (params: P) => Promise<R>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: run,
    onSettled: () => queryClient.invalidateQueries({ queryKey: toolKeys.all }),
  });
}

export function usePatchBundle() {
  const api = useApi();
  return useStoreMutation((params: ParamsOf<Operations['bundles.patch']>) => api.bundles.patch(params));
}

export function usePutBundle() {
  const api = useApi();
  return useStoreMutation((params: ParamsOf<Operations['bundles.put']>) => api.bundles.put(params));
}

export function useDeleteBundle() {
  const api = useApi();
  return useStoreMutation((params: ParamsOf<Operations['bundles.delete']>) => api.bundles.delete(params));
}

export function useRemoveBundleFolder() {
  const api = useApi();
  return useStoreMutation((params: ParamsOf<Operations['bundles.removeFolder']>) => api.bundles.removeFolder(params));
}

/** Switches a tool on or off; its own page, open or not, shows the answer at once (retiring v1 from v2, then opening v1). */
export function usePatchTool() {
  const api = useApi();
  const queryClient = useQueryClient();
  return useStoreMutation(async (params: ParamsOf<Operations['tools.patch']>) => {
    const entry = await api.tools.patch(params);
    queryClient.setQueryData(toolKeys.tool(params.bundleID, params.toolSlug, params.version), entry);
    return entry;
  });
}

/**
 * Deletes a tool (one version). The window stops showing it first (`moveAway`, in the click itself), so nothing on
 * screen asks for it once it is gone (a store event can arrive before the answer does); `moveBack` if it could not be
 * deleted. `deleted` gets the tool as the core held it just before, not as the window's cache showed it: the cache of
 * a version opened a moment ago can still be the old one (switched on, say), and Undo must put back what was there.
 */
export function useDeleteTool(moveAway: () => void, deleted: (tool: ToolView) => void, moveBack: (error: Error) => void) {
  const api = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (shown: ToolView) => {
      const address = { bundleID: shown.bundleID, toolSlug: shown.slug, version: shown.version };
      const stored = await api.tools.get(address);
      await api.tools.delete(address);
      return stored.status === 'valid' ? stored : shown;
    },
    onMutate: moveAway,
    onError: (error) => moveBack(error),
    onSuccess: (stored) => {
      queryClient.removeQueries({ queryKey: toolKeys.tool(stored.bundleID, stored.slug, stored.version) });
      deleted(stored);
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: toolKeys.all }),
  });
}

/** Puts a deleted tool back as it was (the undo of a deletion), at its own slug and version. */
export function useRestoreTool() {
  const api = useApi();
  return useStoreMutation((tool: ToolView) => api.tools.put({ bundleID: tool.bundleID, toolSlug: tool.slug, version: tool.version, tool: toolInputOf(tool) }));
}

export function useSettings() {
  const api = useApi();
  return useQuery({ queryKey: settingsKey, queryFn: () => api.settings.get() });
}

export function usePatchSettings() {
  const api = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (params: ParamsOf<Operations['settings.patch']>) => api.settings.patch(params),
    onSuccess: (settings) => queryClient.setQueryData(settingsKey, settings),
  });
}

export function useSecretNames() {
  const api = useApi();
  return useQuery({
    queryKey: ['secrets'],
    queryFn: async () => new Set((await api.secrets.list()).secrets.map((secret) => secret.name)),
  });
}

import { useMutation, useQuery } from '@tanstack/react-query';
import type { ParamsOf } from '../../shared/operation.js';
import type { Operations } from '../../shared/operations/index.js';
import type { ApiClient } from '../api/client.js';
import { useApi } from '../api/context.js';
import { toolKeys, useStoreMutation } from './tools.js';
import { useRefreshOn } from './refresh-on.js';

export function useMcpServers() {
  const api = useApi();
  return useQuery({ queryKey: toolKeys.mcpServers, queryFn: async () => (await api.mcpServers.list()).servers });
}

export function useImportMcpServers() {
  const api = useApi();
  return useStoreMutation((params: ParamsOf<Operations['mcpServers.import']>) => api.mcpServers.import(params));
}

export function usePutMcpServer() {
  const api = useApi();
  return useStoreMutation((params: ParamsOf<Operations['mcpServers.put']>) => api.mcpServers.put(params));
}

export function useRestartMcpServer() {
  const api = useApi();
  return useStoreMutation((params: ParamsOf<Operations['mcpServers.restart']>) => api.mcpServers.restart(params));
}

export function useDeleteMcpServer() {
  const api = useApi();
  return useStoreMutation((params: ParamsOf<Operations['mcpServers.delete']>) => api.mcpServers.delete(params));
}

export function useImportClaudeDesktop() {
  const api = useApi();
  return useStoreMutation(() => api.mcpServers.importClaudeDesktop());
}

/** A server's resources and prompts, under the store's key: read again when its tools change (it restarted, or said its lists changed). */
export const mcpOfferingQueries = {
  resources: (api: ApiClient, name: string) => ({ queryKey: [...toolKeys.mcpServers, name, 'resources'], queryFn: () => api.mcpServers.resources({ name }), retry: false }),
  prompts: (api: ApiClient, name: string) => ({ queryKey: [...toolKeys.mcpServers, name, 'prompts'], queryFn: () => api.mcpServers.prompts({ name }), retry: false }),
};

export function useMcpOfferings(name: string | null) {
  const api = useApi();
  const enabled = name !== null;
  const resources = useQuery({ ...mcpOfferingQueries.resources(api, name ?? ''), enabled });
  const prompts = useQuery({ ...mcpOfferingQueries.prompts(api, name ?? ''), enabled });
  // The server said its prompts or resources changed.
  useRefreshOn((event) => [...toolKeys.mcpServers, event.type === 'mcpServers.offeringsChanged' ? event.server : ''], ['mcpServers.offeringsChanged']);
  return { resources, prompts };
}

export function useReadMcpResource() {
  const api = useApi();
  return useMutation({ mutationFn: (params: ParamsOf<Operations['mcpServers.readResource']>) => api.mcpServers.readResource(params) });
}

export function useGetMcpPrompt() {
  const api = useApi();
  return useMutation({ mutationFn: (params: ParamsOf<Operations['mcpServers.getPrompt']>) => api.mcpServers.getPrompt(params) });
}

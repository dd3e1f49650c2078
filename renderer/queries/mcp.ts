import { useQuery } from '@tanstack/react-query';
import type { ParamsOf } from '../../shared/operation.js';
import type { Operations } from '../../shared/operations/index.js';
import { useApi } from '../api/context.js';
import { toolKeys, useStoreMutation } from './tools.js';

export function useMcpServers() {
  const api = useApi();
  return useQuery({ queryKey: toolKeys.mcpServers, queryFn: async () => (await api.mcpServers.list()).servers });
}

export function useImportMcpServers() {
  const api = useApi();
  return useStoreMutation((params: ParamsOf<Operations['mcpServers.import']>) => api.mcpServers.import(params));
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

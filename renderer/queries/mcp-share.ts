import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ParamsOf } from '../../shared/operation.js';
import type { Operations } from '../../shared/operations/index.js';
import { useApi } from '../api/context.js';
import { useRefreshOn } from './refresh-on.js';

const shareKeys = { all: ['mcp-share'] as const, status: ['mcp-share', 'status'] as const, activity: ['mcp-share', 'activity'] as const };

/** Clients come and go, the server starts or fails (mcpShare.changed); tools are edited or switched (the shared tool count). */
export function useMcpShareStatus() {
  const api = useApi();
  useRefreshOn(shareKeys.status, ['mcpShare.changed', 'store.changed']);
  // Read again now and then as well: a client going quiet (or leaving without a word) sends no event.
  return useQuery({ queryKey: shareKeys.status, queryFn: () => api.mcpShare.status(), refetchInterval: 30_000 });
}

/** A client's call is recorded (mcpShare.changed). */
export function useMcpActivity() {
  const api = useApi();
  useRefreshOn(shareKeys.activity, ['mcpShare.changed']);
  return useQuery({ queryKey: shareKeys.activity, queryFn: async () => (await api.mcpShare.activity({ limit: 50 })).calls });
}

function useShareMutation<P>(run: (params: P) => Promise<unknown>) {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: run, onSettled: () => queryClient.invalidateQueries({ queryKey: shareKeys.all }) });
}

export function useConfigureMcpShare() {
  const api = useApi();
  return useShareMutation((params: ParamsOf<Operations['mcpShare.configure']>) => api.mcpShare.configure(params));
}

export function useShareBundle() {
  const api = useApi();
  return useShareMutation((params: ParamsOf<Operations['mcpShare.shareBundle']>) => api.mcpShare.shareBundle(params));
}

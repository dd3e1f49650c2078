import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import type { ParamsOf } from '../../shared/operation.js';
import type { Operations } from '../../shared/operations/index.js';
import { useApi, useCoreTransport } from '../api/context.js';

const shareKeys = { all: ['mcp-share'] as const, status: ['mcp-share', 'status'] as const, activity: ['mcp-share', 'activity'] as const };

/** Kept current by `mcpShare.changed` (clients come and go, calls are made) and store changes (the shared tool count). */
function useShareEvents() {
  const transport = useCoreTransport();
  const queryClient = useQueryClient();
  useEffect(
    () =>
      transport.subscribe((event) => {
        if (event.type === 'mcpShare.changed' || event.type === 'store.changed') void queryClient.invalidateQueries({ queryKey: shareKeys.all });
      }),
    [transport, queryClient],
  );
}

export function useMcpShareStatus() {
  const api = useApi();
  useShareEvents();
  return useQuery({ queryKey: shareKeys.status, queryFn: () => api.mcpShare.status() });
}

export function useMcpActivity() {
  const api = useApi();
  useShareEvents();
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

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ParamsOf } from '../../shared/operation.js';
import type { Operations } from '../../shared/operations/index.js';
import { useApi } from '../api/context.js';

// The person's model providers, their models, and what a model can do.

export const providerKeys = {
  providers: ['providers'] as const,
  models: (providerId: string) => ['providers', 'models', providerId] as const,
  capabilities: (providerId: string, model: string) => ['providers', 'capabilities', providerId, model] as const,
};

export function useProviders() {
  const api = useApi();
  return useQuery({ queryKey: providerKeys.providers, queryFn: async () => (await api.providers.list()).providers });
}

export function useModels(providerId: string | null) {
  const api = useApi();
  return useQuery({
    queryKey: providerKeys.models(providerId ?? ''),
    queryFn: () => api.models.list({ id: providerId! }),
    enabled: providerId !== null,
    retry: false,
    staleTime: 60_000,
  });
}

export function usePutProvider() {
  const api = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (params: ParamsOf<Operations['providers.put']>) => api.providers.put(params),
    onSettled: () => queryClient.invalidateQueries({ queryKey: providerKeys.providers }),
  });
}

export function useDeleteProvider() {
  const api = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.providers.delete({ id }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: providerKeys.providers }),
  });
}

export function useTestProvider() {
  const api = useApi();
  return useMutation({ mutationFn: (id: string) => api.providers.test({ id }) });
}

/** What the chat's model can do (tools refused before, parallel calls, its input size); `after` (a run's end) asks again. */
export function useCapabilities(providerId: string, model: string, after = '') {
  const api = useApi();
  return useQuery({
    queryKey: [...providerKeys.capabilities(providerId, model), after],
    queryFn: () => api.models.capabilities({ id: providerId, model }),
    enabled: model.trim() !== '',
    retry: false,
    staleTime: 30_000,
  });
}

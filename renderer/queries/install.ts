import { useMutation, useQuery } from '@tanstack/react-query';
import type { ParamsOf } from '../../shared/operation.js';
import type { Operations } from '../../shared/operations/index.js';
import { useApi } from '../api/context.js';
import { useStoreMutation } from './tools.js';

export function useMcpbInstall() {
  const api = useApi();
  return useStoreMutation((params: ParamsOf<Operations['mcpb.install']>) => api.mcpb.install(params));
}

/** A page of a registry's servers; the core keeps pages ten minutes, so going back and forth costs nothing. */
export function useRegistrySearch(params: ParamsOf<Operations['mcpRegistry.search']>, enabled: boolean) {
  const api = useApi();
  return useQuery({ queryKey: ['mcpRegistry', params], queryFn: () => api.mcpRegistry.search(params), enabled, retry: false, placeholderData: (previous) => previous });
}

export function useRegistryPlan() {
  const api = useApi();
  return useMutation({ mutationFn: (params: ParamsOf<Operations['mcpRegistry.plan']>) => api.mcpRegistry.plan(params) });
}

export function useRegistryInstall() {
  const api = useApi();
  return useStoreMutation((params: ParamsOf<Operations['mcpRegistry.install']>) => api.mcpRegistry.install(params));
}

export function useLinkPreview(url: string) {
  const api = useApi();
  return useQuery({ queryKey: ['links', url], queryFn: () => api.links.preview({ url }), retry: false });
}

export function useLinkInstall() {
  const api = useApi();
  return useStoreMutation((params: ParamsOf<Operations['links.installMcp']>) => api.links.installMcp(params));
}

import { useQuery } from '@tanstack/react-query';
import { useApi } from '../api/context.js';

export const appKeys = {
  info: ['app', 'info'] as const,
  health: ['app', 'health'] as const,
};

export function useAppInfo() {
  const api = useApi();
  return useQuery({ queryKey: appKeys.info, queryFn: () => api.app.info(), staleTime: Infinity });
}

/** Polled so the status bar notices a core that stopped answering. */
export function useAppHealth() {
  const api = useApi();
  return useQuery({
    queryKey: appKeys.health,
    queryFn: () => api.app.health(),
    refetchInterval: 10_000,
    retry: false,
  });
}

import { useQuery } from '@tanstack/react-query';
import { useApi } from '../api/context.js';

/** An MCP tool's app document (its ui:// resource) and what it declared for its sandbox; read once per tool while the window lives. */
export function useAppResource(address: { bundleID: string; slug: string } | null) {
  const api = useApi();
  return useQuery({
    queryKey: ['mcp-app', address?.bundleID, address?.slug],
    queryFn: () => api.mcpApps.resource({ bundleID: address!.bundleID, toolSlug: address!.slug }),
    enabled: address !== null,
    staleTime: Infinity,
    retry: false,
  });
}

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { TesterBook } from '../../shared/schemas/tester.js';
import { useApi } from '../api/context.js';

export interface BookAddress {
  bundleID: string;
  toolSlug: string;
}

export const testerKeys = {
  book: (address: BookAddress) => ['tester', address.bundleID, address.toolSlug] as const,
};

/** A tool's kept runs and examples; nothing is asked for a draft (null). */
export function useTesterBook(address: BookAddress | null) {
  const api = useApi();
  return useQuery({
    queryKey: address ? testerKeys.book(address) : ['tester', 'none'],
    queryFn: () => api.tester.book(address!),
    enabled: address !== null,
  });
}

/** Saving or deleting an example answers with the whole book: it goes straight into the cache. */
export function useExampleChange(address: BookAddress | null) {
  const api = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (change: { kind: 'save'; name: string; args: Record<string, unknown> } | { kind: 'delete'; name: string }) =>
      change.kind === 'save' ? api.tester.saveExample({ ...address!, name: change.name, args: change.args }) : api.tester.deleteExample({ ...address!, name: change.name }),
    onSuccess: (book: TesterBook) => {
      if (address) queryClient.setQueryData(testerKeys.book(address), book);
    },
  });
}

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { SignInView } from '../../shared/schemas/oauth.js';
import { useApi } from '../api/context.js';
import { toolKeys } from './tools.js';

/** A bundle's connection, or one tool of it that has its own. */
export interface SignInTarget {
  bundleID: string;
  toolSlug?: string;
  version?: string;
}

/** Under the store's key: a changed connection (new client, new scope) is read again with the rest. */
const signInKey = (target: SignInTarget) => [...toolKeys.all, 'sign-in', target.bundleID, target.toolSlug ?? '', target.version ?? ''];

/** A connection's browser sign-in; asked again every second while the browser has not come back. */
export function useSignInState(target: SignInTarget, enabled: boolean) {
  const api = useApi();
  return useQuery({
    queryKey: signInKey(target),
    queryFn: () => api.oauth.state(target),
    enabled,
    retry: false,
    refetchInterval: (query) => (query.state.data?.state === 'waiting' ? 1_000 : false),
  });
}

function useSignInChange(run: (target: SignInTarget) => Promise<SignInView>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: run,
    onSuccess: (view, target) => queryClient.setQueryData(signInKey(target), view),
  });
}

export function useSignIn() {
  const api = useApi();
  return useSignInChange((target) => api.oauth.signIn(target));
}

export function useSignOut() {
  const api = useApi();
  return useSignInChange((target) => api.oauth.signOut(target));
}

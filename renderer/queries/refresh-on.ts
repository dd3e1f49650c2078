import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import type { CoreEvent, CoreEventType } from '../../shared/events.js';
import { useCoreTransport } from '../api/context.js';

/** Reads again what `keyOf` names when one of `events` arrives (a constant key, or one taken from the event). */
export function useRefreshOn(keyOf: readonly unknown[] | ((event: CoreEvent) => readonly unknown[]), events: readonly CoreEventType[]) {
  const transport = useCoreTransport();
  const queryClient = useQueryClient();
  useEffect(
    () =>
      transport.subscribe((event) => {
        if (events.includes(event.type)) void queryClient.invalidateQueries({ queryKey: typeof keyOf === 'function' ? keyOf(event) : keyOf });
      }),
    // The key and events are constants of each hook.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [transport, queryClient],
  );
}

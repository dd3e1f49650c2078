import { forwardAbort } from '../common/signals.js';

/**
 * Calls that can be cancelled by id. The browser host aborts a call when
 * its HTTP request closes; Electron's IPC has no such thing, so the window
 * names each cancellable call and cancels it with `calls.cancel`.
 */
export interface CallRegistry {
  /** Tracks a call; its signal aborts on cancel or when `outer` does. */
  begin(callId: string, outer?: AbortSignal): { signal: AbortSignal; end: () => void };
  /** Aborts the call; false when no call has that id (it ended already). */
  cancel(callId: string): boolean;
}

export function createCallRegistry(): CallRegistry {
  const inflight = new Map<string, AbortController>();
  return {
    begin(callId, outer) {
      const controller = new AbortController();
      const unfollow = outer ? forwardAbort(outer, controller) : () => {};
      inflight.set(callId, controller);
      return {
        signal: controller.signal,
        end: () => {
          unfollow();
          if (inflight.get(callId) === controller) inflight.delete(callId);
        },
      };
    },
    cancel(callId) {
      const controller = inflight.get(callId);
      if (!controller) return false;
      controller.abort();
      return true;
    },
  };
}

import { forwardAbort } from '../common/signals.js';

/**
 * One signal that fires when the caller cancels or a deadline passes, and
 * says which. Cheaper than AbortSignal.any + AbortSignal.timeout, which on
 * every call allocate transferable signals (measured in npm run bench).
 */
export interface Deadline {
  signal: AbortSignal;
  timeoutMs: number;
  timedOut(): boolean;
  cancelled(): boolean;
  dispose(): void;
}

export function deadline(caller: AbortSignal, timeoutMs: number): Deadline {
  const controller = new AbortController();
  let expired = false;
  const timer = setTimeout(() => {
    expired = true;
    controller.abort(new DOMException('The operation timed out.', 'TimeoutError'));
  }, timeoutMs);
  const unfollow = forwardAbort(caller, controller);
  return {
    signal: controller.signal,
    timeoutMs,
    timedOut: () => expired,
    cancelled: () => caller.aborted,
    dispose() {
      clearTimeout(timer);
      unfollow();
    },
  };
}

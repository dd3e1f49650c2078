import { NOT_CANCELLABLE } from '../common/signals.js';

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
  const onCancel = () => controller.abort(caller.reason);
  // The shared never-firing signal would collect one listener per concurrent call (and Node's leak warning).
  const listens = caller !== NOT_CANCELLABLE;
  if (caller.aborted) onCancel();
  else if (listens) caller.addEventListener('abort', onCancel, { once: true });
  return {
    signal: controller.signal,
    timeoutMs,
    timedOut: () => expired,
    cancelled: () => caller.aborted,
    dispose() {
      clearTimeout(timer);
      if (listens) caller.removeEventListener('abort', onCancel);
    },
  };
}

/**
 * The signal of calls nobody can cancel (internal callers, scripts): one
 * shared signal that never fires. Making an AbortController costs
 * microseconds per call (npm run bench), and code that hands a signal on
 * can skip linking it.
 */
export const NOT_CANCELLABLE: AbortSignal = new AbortController().signal;

/**
 * Aborts `controller` (then calls `afterAbort`) when `caller` aborts, until the function returned is
 * called: a long-lived caller (a chat run, a connection) must not collect a
 * listener for every piece of work that once followed it. The signal that
 * never fires is not listened to at all.
 */
export function forwardAbort(caller: AbortSignal, controller: AbortController, afterAbort?: () => void): () => void {
  if (caller === NOT_CANCELLABLE) return () => {};
  const forward = () => {
    controller.abort(caller.reason);
    afterAbort?.();
  };
  if (caller.aborted) {
    forward();
    return () => {};
  }
  caller.addEventListener('abort', forward, { once: true });
  return () => caller.removeEventListener('abort', forward);
}

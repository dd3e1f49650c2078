/**
 * The signal of calls nobody can cancel (internal callers, scripts): one
 * shared signal that never fires. Making an AbortController costs
 * microseconds per call (npm run bench), and code that hands a signal on
 * can skip linking it.
 */
export const NOT_CANCELLABLE: AbortSignal = new AbortController().signal;

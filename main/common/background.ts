/**
 * The one way to start work nobody awaits. A promise left to itself that
 * rejects is an unhandled rejection, which stops a Node process; here every
 * failure reaches `report`, which tells the log and, where it matters, the
 * window. Lint refuses `void promise` in the core so this is the only path.
 */
export function inBackground(work: Promise<unknown>, report: (error: unknown) => void): void {
  work.then(undefined, (error: unknown) => {
    try {
      report(error);
    } catch {
      // A report that fails must not become the unhandled rejection it was meant to prevent.
    }
  });
}

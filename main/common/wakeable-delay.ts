/**
 * A delay that can be cut short: writes that gather a burst wait for it, and a flush wakes it. Its timer keeps
 * nothing alive, so a process closing does not wait for it (a flush must wake it, or the closing never ends).
 */
export function wakeableDelay(ms: number): { elapsed: Promise<void>; wake: () => void } {
  let wake: () => void = () => {};
  const elapsed = new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms).unref();
    wake = () => {
      clearTimeout(timer);
      resolve();
    };
  });
  return { elapsed, wake };
}

/** Time as the core sees it: injected, so tests can move it by hand. */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

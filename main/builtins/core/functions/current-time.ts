import type { LocalFunction } from '../../../tools/local/registry.js';

/** core.currentTime: the time now in an IANA zone (the computer's own by default). */
export const currentTime: LocalFunction = (args, context) => {
  const now = context.now();
  const timeZone = typeof args.timeZone === 'string' && args.timeZone ? args.timeZone : Intl.DateTimeFormat().resolvedOptions().timeZone;
  let formatter: Intl.DateTimeFormat;
  try {
    formatter = new Intl.DateTimeFormat('en-GB', { timeZone, dateStyle: 'full', timeStyle: 'long' });
  } catch {
    throw new Error(`"${timeZone}" is not a time zone. Use an IANA name such as Europe/Paris or America/New_York.`);
  }
  return { iso: now.toISOString(), timeZone: formatter.resolvedOptions().timeZone, formatted: formatter.format(now), unixMs: now.getTime() };
};

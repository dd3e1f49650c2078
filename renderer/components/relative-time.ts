import { useEffect, useState } from 'react';
import { i18n } from '../i18n/index.js';

const UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ['year', 365 * 24 * 3600],
  ['month', 30 * 24 * 3600],
  ['week', 7 * 24 * 3600],
  ['day', 24 * 3600],
  ['hour', 3600],
  ['minute', 60],
];

/**
 * A `now` from useNow is up to a tick old, so something that happened since reads as up to that much in the future;
 * such a time is "just now", not "in 1 minute".
 */
const TICK_SLACK_SECONDS = 120;

/** "just now", "5 minutes ago", "yesterday", "3 weeks ago": when something happened, as people say it in their language. */
export function relativeTime(iso: string, now: number, locale: string = i18n.language): string {
  const then = Date.parse(iso);
  if (Number.isNaN(then)) return '';
  const seconds = Math.round((then - now) / 1000);
  const justNow = i18n.t('time.justNow', { lng: locale });
  if (seconds > -45 && seconds < TICK_SLACK_SECONDS) return justNow;
  const format = new Intl.RelativeTimeFormat(locale, { numeric: 'auto' });
  for (const [unit, size] of UNITS) {
    if (Math.abs(seconds) >= size || unit === 'minute') return format.format(Math.round(seconds / size), unit);
  }
  return justNow;
}

/** The current time, updated every `intervalMs`, so relative times move on while the window stays open. */
export function useNow(intervalMs = 60_000): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), intervalMs);
    return () => clearInterval(timer);
  }, [intervalMs]);
  return now;
}

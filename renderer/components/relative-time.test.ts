import { describe, expect, it } from 'vitest';
import { relativeTime } from './relative-time.js';

const now = Date.parse('2026-11-24T12:00:00.000Z');
const ago = (seconds: number) => new Date(now - seconds * 1000).toISOString();

describe('relative times', () => {
  it('says how long ago, in the largest unit that fits', () => {
    expect(relativeTime(ago(10), now, 'en')).toBe('just now');
    expect(relativeTime(ago(130), now, 'en')).toBe('2 minutes ago');
    expect(relativeTime(ago(3 * 3600), now, 'en')).toBe('3 hours ago');
    expect(relativeTime(ago(26 * 3600), now, 'en')).toBe('yesterday');
    expect(relativeTime(ago(15 * 24 * 3600), now, 'en')).toBe('2 weeks ago');
    expect(relativeTime(ago(400 * 24 * 3600), now, 'en')).toBe('last year');
  });

  it('copes with a clock that runs behind and with dates that do not parse', () => {
    expect(relativeTime(ago(-20), now, 'en')).toBe('just now');
    // A chat changed after the last tick of the window's clock: not "in 1 minute".
    expect(relativeTime(ago(-90), now, 'en')).toBe('just now');
    expect(relativeTime(ago(-7200), now, 'en')).toBe('in 2 hours');
    expect(relativeTime('not a date', now, 'en')).toBe('');
  });

  it('speaks the window’s language', () => {
    expect(relativeTime(ago(10), now, 'de')).toBe('gerade eben');
    expect(relativeTime(ago(3 * 3600), now, 'de')).toBe('vor 3 Stunden');
    expect(relativeTime(ago(130), now, 'ar')).toBe('قبل دقيقتين');
  });
});

import { describe, expect, it } from 'vitest';
import { UUID_V7_PATTERN } from '../../shared/schemas/ids.js';
import { newUuidV7 } from './uuid-v7.js';

const isV7 = (id: string) => new RegExp(UUID_V7_PATTERN).test(id);
/** The millisecond an id carries in its first 48 bits. */
const msecsOf = (id: string) => parseInt(id.replaceAll('-', '').slice(0, 12), 16);

describe('new ids (UUID version 7)', () => {
  it('are valid, all different, and sort in the order they were made, within a millisecond and across many draws of random bytes', () => {
    // 2,000 ids: several refills of the random pool, all within a handful of milliseconds.
    const ids = Array.from({ length: 2_000 }, () => newUuidV7());
    expect(ids.every(isV7)).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
    expect([...ids].sort()).toEqual(ids);
  });

  it('carry the time they were made, and stay in order when the clock goes back', () => {
    const at = Date.UTC(2030, 0, 1);
    const first = newUuidV7(at);
    expect(msecsOf(first)).toBe(at);
    const later = newUuidV7(at + 5);
    expect(msecsOf(later)).toBe(at + 5);
    // The clock moved back a second (a correction): the next id still sorts after the last.
    const afterCorrection = newUuidV7(at - 1_000);
    expect(afterCorrection > later).toBe(true);
    expect(isV7(afterCorrection)).toBe(true);
  });

  it('differ in their random part from one millisecond to the next (no two runs of ids share a start)', () => {
    const at = Date.UTC(2031, 0, 1);
    const randomParts = Array.from({ length: 50 }, (_, index) => newUuidV7(at + 10 * index).slice(24));
    expect(new Set(randomParts).size).toBe(randomParts.length);
  });
});

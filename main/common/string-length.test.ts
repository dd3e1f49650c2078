import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { createAjv } from './validation.js';

const PIECES = ['a', 'é', '😀', '\uD83D', '\uDE00', ' ', '字'];

/** A string of `count` pieces, some of them one UTF-16 unit, some two, some lone surrogates. */
function stringOf(count: number, seed: number): string {
  let text = '';
  let state = seed;
  for (let index = 0; index < count; index++) {
    state = (state * 1103515245 + 12345) % 2147483648;
    text += PIECES[state % PIECES.length];
  }
  return text;
}

describe('maxLength and minLength counted quickly', () => {
  it('count characters (code points) as JSON Schema does, with ajv’s own words', () => {
    const ajv = createAjv({ strict: false });
    const atMostFive = ajv.compile({ type: 'string', maxLength: 5 });
    expect(atMostFive('abcde')).toBe(true);
    expect(atMostFive('😀😀😀😀😀')).toBe(true);
    expect(atMostFive('😀😀😀😀😀😀')).toBe(false);
    expect(atMostFive.errors?.[0]).toMatchObject({ keyword: 'maxLength', message: 'must NOT have more than 5 characters', params: { limit: 5 } });
    const atLeastThree = ajv.compile({ type: 'string', minLength: 3 });
    expect(atLeastThree('😀😀😀')).toBe(true);
    expect(atLeastThree('😀😀')).toBe(false);
    expect(atLeastThree.errors?.[0]).toMatchObject({ keyword: 'minLength', message: 'must NOT have fewer than 3 characters', params: { limit: 3 } });
    expect(ajv.compile({ maxLength: 1 })(12345)).toBe(true);
  });

  it('agree with ajv’s own count on every length around each limit', () => {
    const ours = createAjv({ strict: false });
    const theirs = new Ajv2020({ strict: false });
    for (const limit of [0, 1, 2, 3, 7, 16]) {
      for (const keyword of ['maxLength', 'minLength']) {
        const schema = { type: 'string', [keyword]: limit };
        const mine = ours.compile(schema);
        const reference = theirs.compile(schema);
        for (let count = 0; count <= 2 * limit + 3; count++) {
          for (let seed = 1; seed <= 40; seed++) {
            const text = stringOf(count, seed * 7919 + count);
            expect(mine(text), `${keyword} ${limit}: ${JSON.stringify(text)}`).toBe(reference(text));
          }
        }
      }
    }
  });
});

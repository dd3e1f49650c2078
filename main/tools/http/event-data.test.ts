import { describe, expect, it } from 'vitest';
import { MAX_JSON_DEPTH } from '../../common/json-limits.js';
import { eventValues } from './event-data.js';

/** What each event's data is when parsed on its own: the meaning the tool format gives it. */
function alone(data: string): unknown {
  try {
    return JSON.parse(data) as unknown;
  } catch {
    return data;
  }
}

/** A small deterministic generator, so a failing mix can be run again. */
function randomFrom(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    return state / 2 ** 31;
  };
}

// Whole values and pieces that only make values together: what would fool a batch parse that trusted its count.
const PIECES = [
  '{"id":1,"name":"item 1","score":0.3333333333333333}',
  '{"text":"a } and a \\" inside"}',
  '{"__proto__":{"polluted":true}}',
  '{"a":1}}',
  '{"a":"x}',
  '{"b":"y"}',
  '{"a":1},{"b":2}',
  '{"c":[{"d":1}',
  '{"e":2}]}',
  '1,2',
  '[3',
  '4]',
  '[1],[2]',
  '[[3]',
  '[4]]',
  '"open',
  'close"',
  '"s"',
  '12',
  '-',
  'null',
  'tru',
  '{',
  '}',
  ' [1, 2] ',
  '{"nested":{"deep":[1,{"x":null}]}}',
  'plain words',
];

describe('the data of events that arrived together', () => {
  it('parses a batch of records to what each parses to alone, keeping text that is no JSON in its place', () => {
    const datas = ['{"id":1}', 'hello', '{"id":2,"note":"} ] ,"}', '42', '"token"', '{"id":3}'];
    expect(eventValues(datas)).toEqual([{ id: 1 }, 'hello', { id: 2, note: '} ] ,' }, 42, 'token', { id: 3 }]);
  });

  it('does not join events that are no value on their own into values they make together', () => {
    // Three events, three items when joined: only the parse of each alone says they are text.
    expect(eventValues(['1,2', '[3', '4]'])).toEqual(['1,2', '[3', '4]']);
    expect(eventValues(['[1],[2]', '[[3]', '[4]]'])).toEqual(['[1],[2]', '[[3]', '[4]]']);
    expect(eventValues(['{"a":1},{"b":2}', '{"c":[{"d":1}', '{"e":2}]}'])).toEqual(['{"a":1},{"b":2}', '{"c":[{"d":1}', '{"e":2}]}']);
    // Records that look whole at both ends but are not: a string left open, a brace too many.
    expect(eventValues(['{"a":"x}', '{"b":"y"}'])).toEqual(['{"a":"x}', { b: 'y' }]);
    expect(eventValues(['{"a":1}}', '{"b":2}'])).toEqual(['{"a":1}}', { b: 2 }]);
  });

  it('gives what parsing each alone gives for any mix of whole values and pieces', () => {
    const random = randomFrom(7);
    for (let round = 0; round < 3_000; round++) {
      const datas = Array.from({ length: 1 + Math.floor(random() * 8) }, () => PIECES[Math.floor(random() * PIECES.length)]!);
      expect(eventValues(datas), JSON.stringify(datas)).toEqual(datas.map(alone));
    }
  });

  it('keeps an event nested deeper than Toolbelt takes as its text, batched or not', () => {
    const deep = `${'['.repeat(MAX_JSON_DEPTH + 2)}${']'.repeat(MAX_JSON_DEPTH + 2)}`;
    expect(eventValues([deep])).toEqual([deep]);
    expect(eventValues(['{"a":1}', deep, '{"b":2}'])).toEqual([{ a: 1 }, deep, { b: 2 }]);
  });

  it('parses a flood of small records in one batch to the same list', () => {
    const datas = Array.from({ length: 10_000 }, (_, i) => JSON.stringify({ i, s: `#${i}` }));
    expect(eventValues(datas)).toEqual(datas.map(alone));
  });
});

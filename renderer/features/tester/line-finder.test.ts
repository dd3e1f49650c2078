import { describe, expect, it } from 'vitest';
import { lineFinder, MAX_MATCHES } from './line-finder.js';

/** The plain way, line by line: what the finder must agree with. */
function expected(text: string, query: string) {
  const needle = query.trim().toLowerCase();
  return text
    .split('\n')
    .map((line, index) => ({ line: index + 1, text: line }))
    .filter((entry) => needle && entry.text.toLowerCase().includes(needle))
    .slice(0, MAX_MATCHES);
}

describe('find in a value', () => {
  const text = JSON.stringify({ items: Array.from({ length: 500 }, (_, index) => ({ index, name: `Item ${index}`, note: index % 7 ? 'plain' : 'Special NOTE' })) }, null, 2);

  it('finds the lines with the words, case aside, with their line numbers, as line by line would', () => {
    const find = lineFinder(text);
    for (const query of ['special note', 'ITEM 42', '"index": 4', 'items', '  name  ', 'nothing like this', '', '\n', '}']) {
      expect(find(query), query).toEqual(expected(text, query));
    }
  });

  it('lists at most 200 lines, and one line once however often it holds the words', () => {
    expect(lineFinder(text)('"')).toHaveLength(MAX_MATCHES);
    expect(lineFinder('a a a\nb\na')('a')).toEqual([{ line: 1, text: 'a a a' }, { line: 3, text: 'a' }]);
  });

  it('agrees where lower-casing changes the length of the text', () => {
    const turkish = 'İstanbul\nistanbul\nIzmir';
    expect(lineFinder(turkish)('istanbul')).toEqual(expected(turkish, 'istanbul'));
    const prepared = lineFinder(turkish);
    prepared.prepare();
    expect(prepared('istanbul')).toEqual(expected(turkish, 'istanbul'));
  });

  it('finds the same once prepared ahead of the first query', () => {
    const find = lineFinder(text);
    find.prepare();
    expect(find('special note')).toEqual(expected(text, 'special note'));
  });
});

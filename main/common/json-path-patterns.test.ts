import { describe, expect, it } from 'vitest';
import { select } from '../../shared/tools/json-path.js';
import { runJsonPathPatternsLinearly } from './json-path-patterns.js';

// Forty "a"s and a "!": on a backtracking engine `^(a+)+$` takes about 2^40 steps on it (27 took 7 s).
const HOSTILE = `${'a'.repeat(40)}!`;

describe('patterns inside JSONPath (match, search) on the linear-time engine', () => {
  it('a backtracking pattern over a hostile text answers at once, for match() and search()', async () => {
    await runJsonPathPatternsLinearly();
    expect(select([HOSTILE, 'aaa'], "$[?search(@, '^(a+)+$')]").value).toEqual(['aaa']);
    expect(select([HOSTILE, 'aaa'], "$[?match(@, '(a+)+')]").value).toEqual(['aaa']);
    // A pattern taken from the data itself runs on the same engine.
    expect(select({ items: [{ text: HOSTILE, pattern: '(a|aa)+$' }] }, '$.items[?search(@.text, @.pattern)]').value).toEqual([]);
  });

  it('keeps RFC 9535’s meaning: match() is the whole string, search() any part, `.` no line break, a pattern that cannot be read matches nothing', async () => {
    await runJsonPathPatternsLinearly();
    const words = ['Bob', 'Bobby', 'rob', 'a\nb', 'a\rb', 'a.b'];
    expect(select(words, "$[?match(@, 'B.b')]").value).toEqual(['Bob']);
    expect(select(words, "$[?search(@, '[Bb]ob')]").value).toEqual(['Bob', 'Bobby']);
    expect(select(words, "$[?match(@, 'a.b')]").value).toEqual(['a.b']);
    expect(select(words, "$[?match(@, 'a[.]b')]").value).toEqual(['a.b']);
    expect(select(words, "$[?search(@, '(unclosed')]").value).toEqual([]);
    expect(select(['Ünïcödé'], "$[?match(@, '\\\\p{Lu}.*')]").value).toEqual(['Ünïcödé']);
  });
});

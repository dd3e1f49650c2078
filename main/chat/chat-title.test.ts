import { describe, expect, it } from 'vitest';
import { DEFAULT_TITLE, titleFrom } from './chat-title.js';

describe("a chat's title from its first message", () => {
  it('reads as text, without the Markdown it was written in', () => {
    expect(titleFrom('**Fix** the [build](https://ci.example.com) `now`')).toBe('Fix the build now');
    expect(titleFrom('# Weather in *Paris*\nand more')).toBe('Weather in Paris');
    expect(titleFrom('- first item\n- second')).toBe('first item');
    expect(titleFrom('> quoted question')).toBe('quoted question');
  });

  it('takes the first line with words, cut at 60 characters', () => {
    expect(titleFrom('\n\n   \nsecond line')).toBe('second line');
    expect(titleFrom('word '.repeat(40))).toHaveLength(58);
    expect(titleFrom('word '.repeat(40)).endsWith('…')).toBe(true);
  });

  it('keeps what is not Markdown, and has a title for a message of none', () => {
    expect(titleFrom('2 * 3 = 6')).toBe('2 * 3 = 6');
    expect(titleFrom('snake_case_name')).toBe('snake_case_name');
    expect(titleFrom('   ')).toBe(DEFAULT_TITLE);
    expect(titleFrom('---')).toBe(DEFAULT_TITLE);
  });

  it('reads a huge or hostile message in bounded time', () => {
    expect(titleFrom('['.repeat(100_000) + 'x')).toMatch(/^\[+/);
    expect(titleFrom('*'.repeat(100_000))).toBe(DEFAULT_TITLE);
  });
});

import { describe, expect, it } from 'vitest';
import { evaluate } from './calculate.js';

describe('calculator', () => {
  it('follows arithmetic precedence and associativity', () => {
    expect(evaluate('1 + 2 * 3')).toBe(7);
    expect(evaluate('(1 + 2) * 3')).toBe(9);
    expect(evaluate('2 ^ 3 ^ 2')).toBe(512);
    expect(evaluate('2 ** 10')).toBe(1024);
    expect(evaluate('-2 ^ 2')).toBe(-4);
    expect(evaluate('10 - 4 - 3')).toBe(3);
    expect(evaluate('7 % 4 + 1.5e2')).toBe(153);
    expect(evaluate('.5 * 4')).toBe(2);
  });

  it('knows constants and functions', () => {
    expect(evaluate('sqrt(16) + abs(-2)')).toBe(6);
    expect(evaluate('max(1, 5, 3) - min(4, 2)')).toBe(3);
    expect(evaluate('round(pi * 100) / 100')).toBe(3.14);
    expect(evaluate('log10(1000)')).toBe(3);
  });

  it('evaluates arithmetic only: anything else is an error', () => {
    for (const attempt of ['process.exit()', 'constructor', 'alert(1)', '1; 2', '"a"', '[1]', 'x => x', '1 +', '(1', '1)', '']) {
      expect(() => evaluate(attempt), attempt).toThrow();
    }
    expect(() => evaluate('1 / 0')).toThrow(/finite/);
  });
});

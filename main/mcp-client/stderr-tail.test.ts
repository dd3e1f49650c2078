import { describe, expect, it } from 'vitest';
import { StderrTail } from './stderr-tail.js';

describe('the stderr tail of a server', () => {
  it('keeps the last 20 lines, each at most 2,000 characters, however much comes without a line end', () => {
    const tail = new StderrTail();
    for (let chunk = 0; chunk < 100; chunk++) tail.write('x'.repeat(64 * 1024));
    // 6.4 MB in, no line yet: nothing kept but the last part of the line being written.
    expect(tail.lines).toEqual([]);
    tail.write('gave up\nsecond line\n');
    expect(tail.lines).toEqual([`…${'x'.repeat(1_993)}gave up`, 'second line']);
    tail.write(`${Array.from({ length: 50 }, (_, index) => `line ${index}`).join('\n')}\n`);
    expect(tail.lines).toHaveLength(20);
    expect(tail.lines.at(-1)).toBe('line 49');
  });
});

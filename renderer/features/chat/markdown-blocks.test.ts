import { describe, expect, it } from 'vitest';
import { createBlockSplitter, splitMarkdownBlocks } from './markdown-blocks.js';

const sample = [
  '# Title',
  '',
  'A paragraph',
  'on two lines.',
  '',
  '```ts',
  'const a = 1;',
  '',
  'const b = 2;',
  '```',
  '',
  '- one',
  '',
  '  still one',
  '- two',
  '',
  'End.',
].join('\n');

describe('Markdown blocks', () => {
  it('splits at blank lines outside fences, keeping indented continuations with their item', () => {
    const { blocks } = splitMarkdownBlocks(sample);
    expect(blocks).toEqual(['# Title\n\n', 'A paragraph\non two lines.\n\n', '```ts\nconst a = 1;\n\nconst b = 2;\n```\n\n', '- one\n\n  still one\n- two\n\n', 'End.']);
    expect(blocks.join('')).toBe(sample);
  });

  it('keeps an unclosed fence (a code block still streaming) as one block', () => {
    expect(splitMarkdownBlocks('Intro\n\n~~~\ncode\n\nmore').blocks).toEqual(['Intro\n\n', '~~~\ncode\n\nmore']);
  });

  it('gives the same blocks when the text arrives piece by piece as when it arrives whole', () => {
    const split = createBlockSplitter();
    for (let end = 1; end <= sample.length; end += 3) expect(split(sample.slice(0, end)).join('')).toBe(sample.slice(0, end));
    expect(split(sample)).toEqual(splitMarkdownBlocks(sample).blocks);
    // Text that did not just grow (an edit, another message) is split afresh.
    expect(split('Other\n\nText')).toEqual(['Other\n\n', 'Text']);
  });
});

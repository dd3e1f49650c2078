import { createRoot, type Root } from 'react-dom/client';
import { DrawnBlock } from './Markdown.js';

/** What a first answer is drawn with: every Markdown construct the chat shows. */
const SAMPLE = [
  '# Heading',
  'Some *emphasis*, **strong**, `code`, ~~struck~~ and [a link](https://example.com).',
  '- a list\n  - nested\n1. ordered\n- [ ] a task',
  '> a quote',
  '| a | b |\n| - | - |\n| 1 | 2 |',
  '```\nplain code\n```',
].join('\n\n');

/** The languages models write most; each grammar is compiled the first time a fence names it. */
const LANGUAGES = ['ts', 'js', 'tsx', 'json', 'python', 'bash', 'sh', 'html', 'xml', 'css', 'sql', 'yaml', 'go', 'rust', 'java', 'c', 'cpp', 'csharp', 'ruby', 'php', 'diff', 'markdown', 'kotlin', 'swift'];

let started = false;

/**
 * Draws Markdown once, out of sight, while the page is idle: the first
 * answer is otherwise the first use of the parser, its extensions and the
 * highlighter's grammars, and that code's first run (tens of milliseconds)
 * lands in the same frame as the answer. One small piece per idle moment,
 * so the warm-up itself never holds the page.
 */
export function warmMarkdownWhenIdle(): void {
  if (started || typeof requestIdleCallback !== 'function') return;
  started = true;
  const steps = [SAMPLE, ...LANGUAGES.map((language) => `\`\`\`${language}\nconst value = { a: [1, "two"] }; // note\n\`\`\``)];
  let root: Root | null = null;
  const next = () => {
    root?.unmount();
    root = null;
    const text = steps.shift();
    if (text === undefined) return;
    root = createRoot(document.createElement('div'));
    root.render(<DrawnBlock text={text} />);
    requestIdleCallback(next, { timeout: 5_000 });
  };
  requestIdleCallback(next, { timeout: 5_000 });
}

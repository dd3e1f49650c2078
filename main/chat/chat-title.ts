import type { Nodes } from 'mdast';
import { fromMarkdown } from 'mdast-util-from-markdown';
import { toString } from 'mdast-util-to-string';

export const DEFAULT_TITLE = 'New chat';

const TITLE_LENGTH = 60;
/** Enough of a message to find its first words; a title never needs the rest. */
const READ_LENGTH = 2_000;

/**
 * A chat's title from the person's first message: its first line of text as
 * it reads, not as it is written (`**Fix** the [build](…)` → "Fix the
 * build"), so Markdown syntax never shows in the chat list.
 */
export function titleFrom(content: string): string {
  const line = firstLine(fromMarkdown(content.slice(0, READ_LENGTH)));
  if (!line) return DEFAULT_TITLE;
  return line.length > TITLE_LENGTH ? `${line.slice(0, TITLE_LENGTH - 3)}…` : line;
}

/** The first line of words of the first block that holds text (a list's first item, not all its items run together). */
function firstLine(node: Nodes): string | null {
  if (!('children' in node) || TEXT_BLOCKS.has(node.type)) {
    return toString(node).split('\n').map((part) => part.replace(/\s+/g, ' ').trim()).find((part) => part !== '') ?? null;
  }
  for (const child of node.children) {
    const line = firstLine(child);
    if (line) return line;
  }
  return null;
}

const TEXT_BLOCKS: ReadonlySet<string> = new Set(['paragraph', 'heading', 'tableCell']);

const FENCE = /^ {0,3}(`{3,}|~{3,})/;

/**
 * Splits Markdown into top-level blocks that render the same apart as
 * together: a boundary is a blank line outside a code fence that is followed
 * by an unindented line (an indented one may continue a list item). Used so
 * a streaming answer re-renders its last block, not the whole text.
 * Returns the blocks and where the last one starts.
 */
export function splitMarkdownBlocks(text: string): { blocks: string[]; lastStart: number } {
  const blocks: string[] = [];
  let fence: string | null = null;
  let blockStart = 0;
  let position = 0;
  let sawBlank = false;
  while (position <= text.length) {
    const end = text.indexOf('\n', position);
    const lineEnd = end === -1 ? text.length : end;
    const line = text.slice(position, lineEnd);
    if (fence !== null) {
      const closing = FENCE.exec(line);
      if (closing && closing[1]![0] === fence[0] && closing[1]!.length >= fence.length && line.trim() === closing[1]) fence = null;
    } else if (line.trim() === '') {
      sawBlank = true;
    } else {
      if (sawBlank && !/^\s/.test(line) && position > blockStart) {
        blocks.push(text.slice(blockStart, position));
        blockStart = position;
      }
      sawBlank = false;
      const opening = FENCE.exec(line);
      if (opening) fence = opening[1]!;
    }
    if (end === -1) break;
    position = end + 1;
  }
  blocks.push(text.slice(blockStart));
  return { blocks, lastStart: blockStart };
}

/**
 * The same split, kept from one call to the next: when the text only grew
 * (a streamed answer), only its last block is split again.
 */
export function createBlockSplitter(): (text: string) => string[] {
  let previous: { text: string; blocks: string[]; lastStart: number } | null = null;
  return (text) => {
    if (previous && text.startsWith(previous.text)) {
      const tail = splitMarkdownBlocks(text.slice(previous.lastStart));
      const blocks = [...previous.blocks.slice(0, -1), ...tail.blocks];
      previous = { text, blocks, lastStart: previous.lastStart + tail.lastStart };
      return blocks;
    }
    const split = splitMarkdownBlocks(text);
    previous = { text, ...split };
    return split.blocks;
  };
}

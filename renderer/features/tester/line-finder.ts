/** At most this many matching lines are listed: a find bar shows where the words are, not every one of them. */
export const MAX_MATCHES = 200;

export interface FoundLine {
  line: number;
  text: string;
}

/** Finds the lines that hold a query; `prepare` makes what it searches ahead of the first query. */
export type LineFinder = ((query: string) => FoundLine[]) & { prepare: () => void };

/**
 * Finds the lines of a (pretty-printed) value that hold some words, case
 * aside, as a find bar does. The lower-cased text is made once per value, so
 * each key typed costs a scan for the words (indexOf over the text), not a
 * split, a lower-casing and a scan of every line: on a 5 MB value that was
 * ~130 ms a key. It is made by `prepare` or the first query, not with the
 * finder: the view that shows a value makes its finder as it draws it, and a
 * 10 MB value took ~60 ms more to show when both were one task.
 */
export function lineFinder(text: string): LineFinder {
  let lowered: string | null = null;
  const prepare = () => (lowered ??= text.toLowerCase());
  const find = (query: string): FoundLine[] => {
    const needle = query.trim().toLowerCase();
    if (!needle) return [];
    const lower = prepare();
    // Lower-casing can change a string's length (a dotted capital I becomes two code units): then positions in
    // the lower-cased text are not positions in the text, and each line is compared on its own instead.
    if (lower.length !== text.length) return byLine(text, query);
    const found: FoundLine[] = [];
    let line = 1;
    let counted = 0;
    let from = 0;
    while (found.length < MAX_MATCHES) {
      const at = lower.indexOf(needle, from);
      if (at < 0) break;
      const start = lower.lastIndexOf('\n', at) + 1;
      // The lines between the last match and this one, counted once.
      for (let newline = lower.indexOf('\n', counted); newline !== -1 && newline < start; newline = lower.indexOf('\n', newline + 1)) line++;
      counted = start;
      const end = lower.indexOf('\n', at + needle.length);
      found.push({ line, text: text.slice(start, end < 0 ? text.length : end) });
      if (end < 0) break;
      from = end + 1;
    }
    return found;
  };
  return Object.assign(find, { prepare });
}

function byLine(text: string, query: string): FoundLine[] {
  const needle = query.trim().toLowerCase();
  if (!needle) return [];
  const found: FoundLine[] = [];
  const lines = text.split('\n');
  for (let index = 0; index < lines.length && found.length < MAX_MATCHES; index++) {
    if (lines[index]!.toLowerCase().includes(needle)) found.push({ line: index + 1, text: lines[index]! });
  }
  return found;
}

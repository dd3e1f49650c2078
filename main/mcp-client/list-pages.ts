/** How much of a paginated list Toolbelt reads from one server; a server past these is cut off, not followed. */
export const LIST_LIMITS = { pages: 100, items: 10_000, chars: 20_000_000 };

export type ListLimits = typeof LIST_LIMITS;

/** A list read whole elsewhere, cut to the limits as allPages would have cut it, with `onCut` told why. */
export function withinLimits<T>(items: T[], onCut: (why: string) => void, limits: ListLimits = LIST_LIMITS): T[] {
  let chars = 0;
  for (const [index, item] of items.entries()) {
    chars += JSON.stringify(item)?.length ?? 0;
    if (index >= limits.items || chars > limits.chars) {
      onCut(index >= limits.items ? `more than ${limits.items} items` : `more than ${Math.round(limits.chars / 1_000_000)} MB`);
      return items.slice(0, index);
    }
  }
  return items;
}

/**
 * Every page of a paginated list (tools, resources, prompts), within limits:
 * a server that repeats a cursor is not followed around in circles, and one
 * that hands out a new cursor forever, or pages of endless items, is cut off
 * at the limit with `onCut` told why; what was read is kept.
 */
export async function allPages<T>(
  page: (cursor: string | undefined) => Promise<{ items: T[]; next?: string | undefined }>,
  onCut: (why: string) => void,
  limits: ListLimits = LIST_LIMITS,
): Promise<T[]> {
  const items: T[] = [];
  const seen = new Set<string>();
  let chars = 0;
  let cursor: string | undefined;
  for (let pages = 1; ; pages++) {
    const answer = await page(cursor);
    for (const item of answer.items) {
      chars += JSON.stringify(item)?.length ?? 0;
      if (items.length >= limits.items || chars > limits.chars) {
        onCut(items.length >= limits.items ? `more than ${limits.items} items` : `more than ${Math.round(limits.chars / 1_000_000)} MB`);
        return items;
      }
      items.push(item);
    }
    cursor = answer.next;
    if (!cursor || seen.has(cursor)) return items;
    if (pages >= limits.pages) {
      onCut(`more than ${limits.pages} pages`);
      return items;
    }
    seen.add(cursor);
  }
}

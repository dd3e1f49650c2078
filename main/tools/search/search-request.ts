/** How many tools a search finds when not told, and at most. */
export const SEARCH_LIMIT_DEFAULT = 5;
export const SEARCH_LIMIT_MAX = 20;

/**
 * A tool_search call's arguments as a search can use them, the same for a
 * chat's model and an MCP client: control characters are spaces, a limit of
 * 0 finds one and 10,000 finds twenty; an empty query is a sentence to act on.
 */
export function searchRequest(args: Record<string, unknown>): { query: string; limit: number } | { problem: string } {
  const query = typeof args.query === 'string' ? args.query.replace(/\p{Cc}+/gu, ' ').trim() : '';
  if (!query) return { problem: 'Say in a few words what the tool should do, for example "create a GitHub issue", then search again.' };
  const asked = typeof args.limit === 'number' && Number.isFinite(args.limit) ? Math.trunc(args.limit) : SEARCH_LIMIT_DEFAULT;
  return { query, limit: Math.min(SEARCH_LIMIT_MAX, Math.max(1, asked)) };
}

/** What a search that found nothing says: never an empty success. `among` names where it looked ("tool of this chat"). */
export function nothingFound(query: string, among: string): string {
  return `No ${among} matches "${query.slice(0, 100)}". Search again with other words: what the tool does, or the service it works with.`;
}

import type { LocalFunction } from '../../../main/tools/local/registry.js';

export const TOOL_SEARCH_DEFAULT_LIMIT = 5;
export const TOOL_SEARCH_MAX_LIMIT = 20;

/** A limit the model sent, as one that can be used: 0 finds one, 10,000 finds twenty. */
function limitOf(value: unknown): number {
  const number = typeof value === 'number' && Number.isFinite(value) ? Math.trunc(value) : TOOL_SEARCH_DEFAULT_LIMIT;
  return Math.min(TOOL_SEARCH_MAX_LIMIT, Math.max(1, number));
}

/**
 * core.toolSearch: finds tools among the ones the chat reaches but has not
 * offered yet; those found are offered from the model's next turn on (the
 * search itself, given by the chat's loop, loads them).
 */
export const toolSearch: LocalFunction = async (args, context) => {
  if (!context.searchTools) {
    throw new Error('Tool search works in a chat that finds its tools by search; here every tool is offered already, so call the one you need.');
  }
  const query = typeof args.query === 'string' ? args.query.replace(/\p{Cc}+/gu, ' ').trim() : '';
  if (!query) throw new Error('Say in a few words what the tool should do, for example "create a GitHub issue", then search again.');
  const matches = await context.searchTools(query, limitOf(args.limit));
  if (matches.length === 0) {
    throw new Error(`No tool of this chat matches "${query.slice(0, 100)}". Search again with other words: what the tool does, or the service it works with.`);
  }
  return { matches, note: 'These can be called from your next turn, by these names.' };
};

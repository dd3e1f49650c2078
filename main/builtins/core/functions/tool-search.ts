import type { LocalFunction } from '../../../tools/local/registry.js';
import { nothingFound, searchRequest } from '../../../tools/search/search-request.js';

/**
 * core.toolSearch: finds tools among the ones the chat reaches but has not
 * offered yet; those found are offered from the model's next turn on (the
 * search itself, given by the chat's loop, loads them).
 */
export const toolSearch: LocalFunction = async (args, context) => {
  if (!context.searchTools) {
    throw new Error('Tool search works in a chat that finds its tools by search; here every tool is offered already, so call the one you need.');
  }
  const request = searchRequest(args);
  if ('problem' in request) throw new Error(request.problem);
  const matches = await context.searchTools(request.query, request.limit);
  if (matches.length === 0) throw new Error(nothingFound(request.query, 'tool of this chat'));
  return { matches, note: 'These can be called from your next turn, by these names.' };
};

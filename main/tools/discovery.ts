import { AUTO_SEARCH_TOKENS, AUTO_SEARCH_TOOLS } from '../../shared/tools/discovery-limits.js';
import type { DiscoveryWhy, ToolDiscovery } from '../../shared/schemas/chat.js';
import type { ToolDefinition } from '../providers/model.js';

/** Why search cannot be offered, in words and as a code. */
export interface SearchUnavailable {
  why: Extract<DiscoveryWhy, 'name_taken' | 'search_cannot_run' | 'no_search'>;
  text: string;
}

/** How a chat's tools are offered this turn, and why: the tools panel shows it. */
export interface Discovery {
  mode: 'all' | 'search';
  /** What the chat asked for. */
  asked: ToolDiscovery;
  /** Why this mode, in words (for those who read the API). */
  reason: string;
  /** Why this mode, as a code: the window says it in the person's language. */
  why: DiscoveryWhy;
  /** Tools the chat reaches. */
  reachable: number;
  /** What offering them all would take, in tokens (estimated). */
  allTokens: number;
  /** What is offered now takes. */
  offeredTokens: number;
}

const estimate = (definitions: readonly ToolDefinition[]) => Math.ceil(JSON.stringify(definitions).length / 4);

/** All at once or by search: `unavailable` says why search cannot be used (the built-in switched off), if so. */
export function chooseDiscovery(asked: ToolDiscovery, definitions: readonly ToolDefinition[], unavailable: SearchUnavailable | null): Discovery {
  const allTokens = estimate(definitions);
  const base = { asked, reachable: definitions.length, allTokens, offeredTokens: allTokens };
  if (asked === 'all') return { ...base, mode: 'all', why: 'asked_all', reason: 'This chat offers every tool on every turn.' };
  const large = definitions.length > AUTO_SEARCH_TOOLS || allTokens > AUTO_SEARCH_TOKENS;
  if (asked === 'auto' && !large) {
    const count = definitions.length === 1 ? 'The one tool is' : `All ${definitions.length} tools are`;
    return { ...base, mode: 'all', why: 'few_tools', reason: `${count} offered: search starts past ${AUTO_SEARCH_TOOLS} tools or ${AUTO_SEARCH_TOKENS.toLocaleString('en')} tokens of definitions.` };
  }
  if (unavailable) return { ...base, mode: 'all', why: unavailable.why, reason: `Every tool is offered because ${unavailable.text}.` };
  if (asked === 'search') return { ...base, mode: 'search', why: 'asked_search', reason: 'This chat finds its tools by search.' };
  return { ...base, mode: 'search', why: 'many_tools', reason: `Found by search: ${definitions.length} tools would take ${allTokens.toLocaleString('en')} tokens on every turn.` };
}

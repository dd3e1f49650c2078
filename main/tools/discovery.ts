import type { ToolDiscovery } from '../../shared/schemas/chat.js';
import type { ToolDefinition } from '../providers/model.js';

/**
 * When `auto` turns to search. Models pick worse past 30 to 50 tools
 * (Anthropic's and OpenAI's guidance; Claude Code and Copilot CLI search
 * past a threshold), and tool definitions past a tenth of the context
 * crowd out the conversation (Claude Code searches MCP tools once they
 * pass 10 % of the context window). A tenth of 128k tokens, the context of
 * most current models, is 12,800 tokens.
 */
export const AUTO_SEARCH_TOOLS = 30;
export const AUTO_SEARCH_TOKENS = 12_800;

/** How a chat's tools are offered this turn, and why: the tools panel shows it. */
export interface Discovery {
  mode: 'all' | 'search';
  /** What the chat asked for. */
  asked: ToolDiscovery;
  /** Why this mode, in words. */
  reason: string;
  /** Tools the chat reaches. */
  reachable: number;
  /** What offering them all would take, in tokens (estimated). */
  allTokens: number;
  /** What is offered now takes. */
  offeredTokens: number;
}

const estimate = (definitions: readonly ToolDefinition[]) => Math.ceil(JSON.stringify(definitions).length / 4);

/** All at once or by search: `unavailable` says why search cannot be used (the built-in switched off), if so. */
export function chooseDiscovery(asked: ToolDiscovery, definitions: readonly ToolDefinition[], unavailable: string | null): Discovery {
  const allTokens = estimate(definitions);
  const base = { asked, reachable: definitions.length, allTokens, offeredTokens: allTokens };
  if (asked === 'all') return { ...base, mode: 'all', reason: 'This chat offers every tool on every turn.' };
  const large = definitions.length > AUTO_SEARCH_TOOLS || allTokens > AUTO_SEARCH_TOKENS;
  if (asked === 'auto' && !large) {
    return { ...base, mode: 'all', reason: `All ${definitions.length} tools are offered: search starts past ${AUTO_SEARCH_TOOLS} tools or ${AUTO_SEARCH_TOKENS.toLocaleString('en')} tokens of definitions.` };
  }
  if (unavailable) return { ...base, mode: 'all', reason: `Every tool is offered because ${unavailable}.` };
  return { ...base, mode: 'search', reason: asked === 'search' ? 'This chat finds its tools by search.' : `Found by search: ${definitions.length} tools would take ${allTokens.toLocaleString('en')} tokens on every turn.` };
}

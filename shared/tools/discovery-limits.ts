/**
 * When `auto` turns to search. Models pick worse past 30 to 50 tools
 * (Anthropic's and OpenAI's guidance; Claude Code and Copilot CLI search
 * past a threshold), and tool definitions past a tenth of the context
 * crowd out the conversation (Claude Code searches MCP tools once they
 * pass 10 % of the context window). A tenth of 128k tokens, the context of
 * most current models, is 12,800 tokens. Shared: the window says them.
 */
export const AUTO_SEARCH_TOOLS = 30;
export const AUTO_SEARCH_TOKENS = 12_800;

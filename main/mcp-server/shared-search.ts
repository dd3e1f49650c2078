import { ProtocolError, ProtocolErrorCode, type Tool } from '@modelcontextprotocol/server';
import type { ToolDiscovery } from '../../shared/schemas/chat.js';
import { chooseDiscovery, type Discovery } from '../tools/discovery.js';
import { TOOL_SEARCH_NAME } from '../tools/exposure.js';
import type { SearchCatalogue } from '../tools/search/search-catalogue.js';
import { nothingFound, SEARCH_LIMIT_DEFAULT, SEARCH_LIMIT_MAX, searchRequest } from '../tools/search/search-request.js';
import type { SharedTool } from './shared-tools.js';

/**
 * Tools per page of tools/list: a client parses one page at a time (a
 * single page of GitHub's 1,200 tools is 6 MB, which took clients 6 to 9
 * seconds and once broke the connection).
 */
export const TOOLS_PAGE_SIZE = 100;

/** tool_search as an MCP client sees it. */
export const TOOL_SEARCH_DEFINITION: Tool = {
  name: TOOL_SEARCH_NAME,
  title: 'Search tools',
  description:
    'Finds tools for a task among the tools Toolbelt shares that are not in your tool list yet. Describe what you need done in a few words. The tools found join your tool list (the server tells you the list changed) and can be called by the names given.',
  inputSchema: {
    type: 'object',
    properties: {
      query: { type: 'string', description: 'What you need done, in a few words.' },
      limit: { type: 'integer', description: `How many tools to find (default ${SEARCH_LIMIT_DEFAULT}, at most ${SEARCH_LIMIT_MAX}).` },
    },
    required: ['query'],
  },
  annotations: { title: 'Search tools', readOnlyHint: true, openWorldHint: false },
};

/** tool_search for a client without a session: what it finds is not listed, it is described to be called. */
const TOOL_SEARCH_WITHOUT_SESSION: Tool = {
  ...TOOL_SEARCH_DEFINITION,
  description:
    'Finds tools for a task among the tools Toolbelt shares that are not in your tool list. Describe what you need done in a few words. Each tool found comes with its input schema: call it by the name given.',
};

/** A page of a list, from an opaque cursor this server gave (its offset); a cursor it did not give is refused. */
export function toolsPage(tools: Tool[], cursor: string | undefined): { tools: Tool[]; nextCursor?: string } {
  let offset = 0;
  if (cursor !== undefined) {
    const decoded = /^o(\d{1,7})$/.exec(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (!decoded) throw new ProtocolError(ProtocolErrorCode.InvalidParams, 'The cursor is not one this server gave. List the tools again from the start.');
    offset = Number(decoded[1]);
  }
  const page = tools.slice(offset, offset + TOOLS_PAGE_SIZE);
  const next = offset + TOOLS_PAGE_SIZE;
  return { tools: page, ...(next < tools.length ? { nextCursor: Buffer.from(`o${next}`, 'utf8').toString('base64url') } : {}) };
}

/** All shared tools at once, or tool_search and what this session has found so far. */
export function sharedDiscovery(asked: ToolDiscovery, shared: readonly SharedTool[]): Discovery {
  return chooseDiscovery(
    asked,
    shared.map((tool) => ({ name: tool.name, description: tool.definition.description ?? '', parameters: tool.definition.inputSchema })),
    shared.some((tool) => tool.name === TOOL_SEARCH_NAME) ? { why: 'name_taken', text: `a shared tool is named ${TOOL_SEARCH_NAME}` } : null,
  );
}

/**
 * One client session's tool search: the tools it found, in the order found,
 * listed after tool_search from then on. A client with no session (2026-07-28
 * requests stand alone) is not remembered: it is given each found tool's
 * input schema with its name, to call it by.
 */
export class SessionSearch {
  private readonly loaded: string[] = [];

  constructor(
    private readonly catalogue: SearchCatalogue,
    private readonly options: { remembers: boolean },
  ) {}

  /** What tools/list shows this session. */
  listed(shared: readonly SharedTool[], mode: Discovery['mode']): Tool[] {
    if (mode === 'all') return shared.map((tool) => tool.definition);
    const byName = new Map(shared.map((tool) => [tool.name, tool]));
    return [this.options.remembers ? TOOL_SEARCH_DEFINITION : TOOL_SEARCH_WITHOUT_SESSION, ...this.loaded.flatMap((name) => byName.get(name)?.definition ?? [])];
  }

  /** Ranks the shared tools not listed yet; those found join the list. */
  search(args: Record<string, unknown>, shared: readonly SharedTool[]): { text: string; found: number; isError: boolean } {
    const request = searchRequest(args);
    if ('problem' in request) return { text: request.problem, found: 0, isError: true };
    const { query, limit } = request;
    const candidates = new Map(shared.filter((tool) => !this.loaded.includes(tool.name)).map((tool) => [tool.record.toolID, tool]));
    const found = this.catalogue.search(query, new Set(candidates.keys()), limit).map((toolID) => candidates.get(toolID)!);
    if (found.length === 0) return { text: nothingFound(query, 'shared tool'), found: 0, isError: true };
    const { remembers } = this.options;
    if (remembers) this.loaded.push(...found.map((tool) => tool.name));
    const matches = found.map((tool) => ({
      name: tool.name,
      description: (tool.definition.description ?? '').slice(0, 1_000),
      bundle: tool.bundleName,
      ...(remembers ? {} : { inputSchema: tool.definition.inputSchema }),
    }));
    const note = remembers ? 'These are in your tool list now: call them by these names.' : 'Call them by these names, with arguments as their input schemas say.';
    return { text: JSON.stringify({ matches, note }, null, 2), found: found.length, isError: false };
  }
}

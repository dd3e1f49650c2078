import type { Chat, ToolDiscovery, ToolRef } from '../../shared/schemas/chat.js';
import { exposeTools, TOOL_SEARCH_NAME, type ToolExposure } from '../tools/exposure.js';
import type { FoundTool } from '../tools/local/registry.js';
import type { ToolResolver } from '../tools/resolver.js';
import type { SearchCatalogue } from '../tools/search/search-catalogue.js';

export interface ToolSearchDeps {
  catalogue: SearchCatalogue;
  /** The built-in offered as `tool_search`. */
  tool: ToolRef;
  /** Settings' default for chats that do not say. */
  discoveryDefault: () => ToolDiscovery;
}

/** Tools a conversation may load by search, at most (its file keeps them). */
export const MAX_LOADED_TOOLS = 1_000;

/**
 * Tool search inside a conversation: what is offered this turn (the fixed
 * set, then what searches loaded, in that order), and the search itself,
 * which ranks the tools not offered yet and loads what it finds, kept in
 * the conversation (`loadedTools`) so they stay offered, also after a
 * restart.
 */
export class ChatToolSearch {
  constructor(
    private readonly deps: ToolSearchDeps,
    private readonly resolver: ToolResolver,
  ) {}

  /** `nativeSearch`: the provider searches itself for this model (every tool sent, the unpinned ones deferred). */
  expose(chat: Chat, nativeSearch = false): Promise<ToolExposure> {
    return exposeTools(chat.tools, this.resolver, {
      discovery: chat.tools.discovery ?? this.deps.discoveryDefault(),
      loaded: chat.loadedTools ?? [],
      toolSearch: this.deps.tool,
      nativeSearch,
    });
  }

  /** The search a call of tool_search in this conversation runs. */
  searcher(chat: Chat): (query: string, limit: number) => Promise<FoundTool[]> {
    return async (query, limit) => {
      const exposure = await this.expose(chat);
      // What the model could call by searching: everything not fixed in place (loaded ones are found again, harmlessly).
      const candidates = [...exposure.deferred.values(), ...[...exposure.byName.values()].filter((tool) => tool.name !== TOOL_SEARCH_NAME && !tool.selection.pinned)];
      const byID = new Map(candidates.map((tool) => [tool.record.toolID, tool]));
      const found = this.deps.catalogue.search(query, new Set(byID.keys()), limit).map((toolID) => byID.get(toolID)!);
      const loaded = (chat.loadedTools ??= []);
      for (const tool of found) {
        const { bundleID, slug, version } = tool.selection;
        if (loaded.length >= MAX_LOADED_TOOLS || loaded.some((ref) => ref.bundleID === bundleID && ref.slug === slug)) continue;
        loaded.push({ bundleID, slug, version });
      }
      return found.map((tool) => ({ name: tool.name, description: tool.definition.description.slice(0, 1_000), bundle: tool.bundleName }));
    };
  }
}

import type { Handlers } from '../api/dispatcher.js';
import type { ProviderStore } from '../providers/provider-store.js';
import type { CapabilityReader } from '../providers/capabilities.js';
import type { ToolResolver } from '../tools/resolver.js';
import { refuseBusy } from './run-book.js';
import type { ChatFiles } from './chat-files.js';
import { droppableCalls, estimateTokens, resultLimits, withResultsCut } from '../tools/model-context.js';
import { exposeTools } from '../tools/exposure.js';
import { ChatToolSearch, type ToolSearchDeps } from '../loop/chat-tool-search.js';
import { systemFor } from '../loop/system-prompt.js';
import type { Invoker } from '../tools/invoker.js';
import type { Chat, ToolCall } from '../../shared/schemas/chat.js';

/**
 * A chat's context budget: what its next request would take against what
 * its model takes, and dropping old tool results to make room (the chat
 * keeps them; the model reads one line for each).
 */
export function contextHandlers(deps: {
  files: ChatFiles;
  providers: ProviderStore;
  capabilities: CapabilityReader;
  resolver: ToolResolver;
  now: () => string;
  changed: (chatId: string) => void;
  search?: ToolSearchDeps;
  /** What the sources of the chat's tools tell the model (the invoker's): part of what each request takes. */
  instructionsOf?: Invoker['instructionsOf'];
}): Pick<Handlers, 'chats.context' | 'chats.dropOldResults'> {
  const search = deps.search ? new ChatToolSearch(deps.search, deps.resolver) : null;
  async function estimate(chat: Chat) {
    const exposure = search ? await search.expose(chat) : await exposeTools(chat.tools, deps.resolver);
    const limits = resultLimits(chat.tools.selected);
    const system = systemFor(chat.system, exposure, deps.instructionsOf);
    const tokens = (messages: Chat['messages']) => estimateTokens({ ...(system ? { system } : {}), messages: withResultsCut(messages, limits), definitions: exposure.definitions });
    const { discovery } = exposure;
    const tools = {
      mode: discovery.mode,
      asked: discovery.asked,
      reason: discovery.reason,
      why: discovery.why,
      reachable: discovery.reachable,
      offered: exposure.byName.size,
      loaded: discovery.mode === 'search' ? [...exposure.byName.values()].filter((tool) => (chat.loadedTools ?? []).some((ref) => ref.bundleID === tool.selection.bundleID && ref.slug === tool.selection.slug)).length : 0,
      offeredTokens: discovery.offeredTokens,
      allTokens: discovery.allTokens,
    };
    return { tokens, now: tokens(chat.messages), tools };
  }

  return {
    'chats.context': async ({ chatId, tools: choosing }, { signal }) => {
      const saved = await deps.files.load(chatId);
      // The tools panel asks before Save: the same chat, offering the tools being chosen.
      const chat = choosing ? { ...saved, tools: choosing } : saved;
      const { tokens, now, tools } = await estimate(chat);
      const droppable = droppableCalls(chat.messages);
      const dropped = droppable.length ? tokens(withDropped(chat.messages, new Set(droppable))) : now;
      const settings = await deps.providers.require(chat.providerId).catch(() => null);
      const context = settings && chat.model ? (await deps.capabilities(settings, chat.model, signal ?? new AbortController().signal)).contextTokens : undefined;
      return {
        ...now,
        ...(context !== undefined ? { contextTokens: context } : {}),
        droppable: { results: droppable.length, tokens: Math.max(0, now.messageTokens - dropped.messageTokens) },
        tools,
      };
    },
    'chats.dropOldResults': async ({ chatId }) => {
      const chat = await deps.files.load(chatId);
      refuseBusy(chat);
      for (const call of droppableCalls(chat.messages)) call.contextDropped = true;
      chat.updatedAt = deps.now();
      await deps.files.save(chat);
      deps.changed(chat.id);
      return chat;
    },
  };
}

/** The messages with these calls' results dropped (the calls themselves, not their ids: servers reuse ids across turns), the chat's own objects left as they are. */
function withDropped(messages: Chat['messages'], calls: Set<ToolCall>): Chat['messages'] {
  const drop = (call: ToolCall): ToolCall => (calls.has(call) ? { ...call, contextDropped: true } : call);
  return messages.map((message) => {
    if (message.role === 'assistant') return { ...message, toolCalls: message.toolCalls.map(drop) };
    if (message.role === 'tool-run') return { ...message, call: drop(message.call) };
    return message;
  });
}

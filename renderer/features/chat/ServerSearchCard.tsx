import { useTranslation } from 'react-i18next';
import type { AssistantMessage } from '../../../shared/schemas/chat.js';

interface Search {
  id: string;
  query: string;
  found: string[];
}

/** The provider's own tool searches of a turn (Anthropic's), paired with what each found. */
function searchesOf(blocks: NonNullable<AssistantMessage['serverBlocks']>): Search[] {
  const searches: Search[] = [];
  for (const block of blocks) {
    if (block.type === 'server_tool_use' && typeof block.id === 'string') {
      const input = block.input as { query?: unknown; pattern?: unknown } | undefined;
      const query = typeof input?.query === 'string' ? input.query : typeof input?.pattern === 'string' ? input.pattern : '';
      searches.push({ id: block.id, query, found: [] });
    } else if (block.type === 'tool_search_tool_result') {
      const search = searches.find((entry) => entry.id === block.tool_use_id);
      const references = (block.content as { tool_references?: { tool_name?: unknown }[] } | undefined)?.tool_references ?? [];
      search?.found.push(...references.flatMap((reference) => (typeof reference.tool_name === 'string' ? [reference.tool_name] : [])));
    }
  }
  return searches;
}

/** A search the provider ran itself for the chat's deferred tools: what it asked, what it loaded. */
export function ServerSearchCards({ blocks }: { blocks: AssistantMessage['serverBlocks'] }) {
  const { t } = useTranslation();
  if (!blocks?.length) return null;
  return (
    <>
      {searchesOf(blocks).map((search) => (
        <article key={search.id} className="tool-card tool-card--ok" aria-label={t('serverSearch.card')}>
          <header className="tool-card__head">
            <span className="tool-card__name">
              <strong>{t('serverSearch.title')}</strong>
              <span className="muted tool-card__origin">{t('serverSearch.byProvider')}</span>
            </span>
          </header>
          <dl className="tool-card__qa">
            <dt>{t('toolCall.searchedFor')}</dt>
            <dd>{search.query}</dd>
            <dt>{t('serverSearch.loaded')}</dt>
            <dd>{search.found.length ? search.found.map((name) => <code key={name}>{`${name} `}</code>) : t('serverSearch.nothing')}</dd>
          </dl>
        </article>
      ))}
    </>
  );
}

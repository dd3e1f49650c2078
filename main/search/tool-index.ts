import MiniSearch, { type SearchOptions } from 'minisearch';
import { QUERY_SYNONYMS, STOP_WORDS } from './search-words.js';

/** What the full-text index knows of a tool: the words a model (or a person) would use to find it. */
export interface IndexedTool {
  toolID: string;
  /** Its slug, and the name it is offered under. */
  name: string;
  displayName: string;
  description: string;
  /** Argument names and their descriptions, one level down. */
  args: string;
  tags: string;
  bundle: string;
}

const FIELDS = ['name', 'displayName', 'description', 'args', 'tags', 'bundle'] as const;

/** The longest query read: a model that sends a page of text is searched by its first words. */
export const MAX_QUERY_LENGTH = 500;

/**
 * What the evaluation set (`npm run bench -- tool-search`, 1,238 real tools,
 * 122 requests) supports, hit@5 with these options 0.72: a tool's own name
 * and title say most (at 3: 0.70; equal weights for every field: 0.71, and
 * hit@1 0.41 against 0.46); argument names and their descriptions help
 * (0.66 without them); prefixes match ("repo" finds "repos"; 0.68 without);
 * typo-tolerant matching finds nothing more and costs a third more time
 * (0.71 with it).
 */
export const SEARCH_OPTIONS: SearchOptions = {
  boost: { name: 2, displayName: 2, tags: 2, bundle: 1.5, description: 1, args: 0.6 },
  prefix: (term) => term.length >= 3,
  fuzzy: false,
  combineWith: 'OR',
};

/** The words searched for: the request's own, less stop words, and what people mean by them in API terms. */
export function queryText(query: string): string {
  const words = tokenize(query.slice(0, MAX_QUERY_LENGTH)).map((word) => word.toLowerCase()).filter((word) => !STOP_WORDS.has(word));
  return [...new Set([...words, ...words.flatMap((word) => QUERY_SYNONYMS[word] ?? [])])].join(' ');
}

/** Splits camelCase and snake_case names into the words they are made of. */
export function tokenize(text: string): string[] {
  return text
    .replace(/([\p{Ll}\p{N}])(\p{Lu})/gu, '$1 $2')
    .split(/[^\p{L}\p{N}]+/u)
    .filter((word) => word.length > 0);
}

/**
 * Ranked full-text search over tools (BM25+, MiniSearch): documents are
 * added, replaced and removed one at a time as the catalogue changes, so a
 * change to one tool never rebuilds the index.
 */
export class ToolTextIndex {
  private readonly engine = new MiniSearch<IndexedTool>({
    idField: 'toolID',
    fields: [...FIELDS],
    storeFields: [],
    tokenize,
    processTerm: (term) => {
      const word = term.toLowerCase();
      return STOP_WORDS.has(word) ? null : word;
    },
    searchOptions: SEARCH_OPTIONS,
  });

  get size(): number {
    return this.engine.documentCount;
  }

  has(toolID: string): boolean {
    return this.engine.has(toolID);
  }

  put(tool: IndexedTool): void {
    if (this.engine.has(tool.toolID)) this.engine.replace(tool);
    else this.engine.add(tool);
  }

  remove(toolID: string): void {
    if (this.engine.has(toolID)) this.engine.discard(toolID);
  }

  /** The best matches among `among` (tool IDs), best first; control characters and regex syntax are only text here. */
  search(query: string, among: ReadonlySet<string>, limit: number, options: SearchOptions = {}): { toolID: string; score: number }[] {
    const text = queryText(query);
    if (text === '' || among.size === 0 || limit <= 0) return [];
    return this.engine
      .search(text, { ...options, filter: (result) => among.has(String(result.id)) })
      .slice(0, limit)
      .map((result) => ({ toolID: String(result.id), score: result.score }));
  }
}

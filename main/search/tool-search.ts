import Fuse, { type IFuseOptions } from 'fuse.js';
import { STOP_WORDS } from './search-words.js';

/** What search knows of a tool: the fields people type, and when it last changed. */
export interface SearchDocument {
  toolID: string;
  slug: string;
  displayName: string;
  description: string;
  tags: string[];
  modifiedAtMs: number;
}

/** The tier of tools that have every word of the query somewhere (after name prefixes, before fuzzy matches). */
export const WORD_TIER = 1;

export interface RankedHit {
  toolID: string;
  /** Sort key: tier (0 prefix, 1 whole word, 2 fuzzy), fuzzy score, recency, id. */
  key: [number, number, number, string];
}

/**
 * Fuzzy matching covers the short fields people type from memory (slug,
 * name, tags); descriptions are matched by whole words, since a typo-tolerant
 * scan of every description would find noise and cost a frame per keystroke.
 */
export const FUSE_OPTIONS: IFuseOptions<SearchDocument> = {
  keys: [
    { name: 'slug', weight: 3 },
    { name: 'displayName', weight: 3 },
    { name: 'tags', weight: 2 },
  ],
  includeScore: true,
  ignoreLocation: true,
  threshold: 0.35,
  minMatchCharLength: 2,
};

interface Prepared {
  document: SearchDocument;
  slug: string;
  displayName: string;
  words: Set<string>;
  /** The display name's words less stop words, in order, joined by spaces: "Create an issue" is "create issue". */
  title: string;
}

/** A name typed as it is, or the words of a title ("create issue" for "Create an issue"): first among the prefix matches. */
const EXACT = -1;

const WORD_SPLIT = /[^\p{L}\p{M}\p{N}]+/u;

function normalize(text: string): string {
  return text.normalize('NFC').toLowerCase();
}

function wordsOf(...fields: string[]): string[] {
  return fields.flatMap((field) => normalize(field).split(WORD_SPLIT)).filter(Boolean);
}

function titleOf(text: string): string {
  return wordsOf(text)
    .filter((word) => !STOP_WORDS.has(word))
    .join(' ');
}

function bigramsOf(words: Iterable<string>): Set<string> {
  const grams = new Set<string>();
  for (const word of words) {
    const chars = [...word];
    for (let i = 0; i + 1 < chars.length; i++) grams.add(chars[i]! + chars[i + 1]!);
  }
  return grams;
}

function push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

/**
 * Ranked tool search: a prefix of the slug or display name beats a whole-word
 * match anywhere, which beats a fuzzy match (fuse.js); recency breaks ties.
 *
 * Fuzzy matching works on words, not whole records: each query word is
 * matched by fuse.js against the distinct words of slugs, names and tags
 * that share enough character pairs with it to be within the threshold (a
 * typo breaks at most two pairs), found through an inverted index. A tool
 * matches when every query word does. That keeps a keystroke inside a frame
 * with ten thousand tools, where fuse.js over every record takes several.
 */
export class ToolSearchIndex {
  private readonly prepared: Prepared[];
  private readonly byWord = new Map<string, number[]>();
  /** Words of the fuzzy fields → the tools that have them. */
  private readonly byFuzzyWord = new Map<string, number[]>();
  private readonly fuzzyWords: string[];
  /** Character pair → indexes into fuzzyWords. */
  private readonly wordsByBigram = new Map<string, number[]>();

  constructor(documents: SearchDocument[]) {
    this.prepared = documents.map((document, index) => {
      const words = new Set(wordsOf(document.slug, document.displayName, document.description, ...document.tags));
      for (const word of words) push(this.byWord, word, index);
      for (const word of new Set(wordsOf(document.slug, document.displayName, ...document.tags))) push(this.byFuzzyWord, word, index);
      return { document, slug: normalize(document.slug), displayName: normalize(document.displayName), words, title: titleOf(document.displayName) };
    });
    this.fuzzyWords = [...this.byFuzzyWord.keys()];
    this.fuzzyWords.forEach((word, index) => {
      for (const gram of bigramsOf([word])) push(this.wordsByBigram, gram, index);
    });
  }

  /** Prefix and whole-word matches, best first: the cheap tiers, enough for most pages. */
  rankPrimary(query: string, accept: (toolID: string) => boolean): RankedHit[] {
    const wanted = normalize(query).trim();
    const hits = new Map<string, RankedHit>();
    const add = (entry: Prepared, tier: number, rank = 0) => {
      const { toolID, modifiedAtMs } = entry.document;
      if (!hits.has(toolID) && accept(toolID)) hits.set(toolID, { toolID, key: [tier, rank, -modifiedAtMs, toolID] });
    };
    if (!wanted) {
      for (const entry of this.prepared) add(entry, 0);
      return sortHits([...hits.values()]);
    }
    const asTitle = titleOf(wanted);
    for (const entry of this.prepared) {
      if (entry.slug === wanted || entry.displayName === wanted || (asTitle && entry.title === asTitle)) add(entry, 0, EXACT);
    }
    for (const entry of this.prepared) {
      if (entry.slug.startsWith(wanted) || entry.displayName.startsWith(wanted)) add(entry, 0);
    }
    const tokens = wordsOf(wanted);
    const [rarest, ...others] = tokens.map((token) => this.byWord.get(token) ?? []).sort((a, b) => a.length - b.length);
    if (rarest && others.every((postings) => postings.length > 0)) {
      for (const index of rarest) {
        const entry = this.prepared[index]!;
        if (tokens.every((token) => entry.words.has(token))) add(entry, WORD_TIER);
      }
    }
    return sortHits([...hits.values()]);
  }

  /** Fuzzy matches not already ranked, best score first. */
  rankFuzzy(query: string, accept: (toolID: string) => boolean, exclude: ReadonlySet<string>): RankedHit[] {
    const tokens = wordsOf(normalize(query).trim()).filter((token) => [...token].length >= 2);
    if (tokens.length === 0) return [];
    // For each tool, the sum of its best score for each query word so far.
    let scores: Map<number, number> | null = null;
    for (const token of tokens) {
      const tokenScores = new Map<number, number>();
      for (const { word, score } of this.similarWords(token)) {
        for (const index of this.byFuzzyWord.get(word) ?? []) {
          const previous = tokenScores.get(index);
          if (previous === undefined || score < previous) tokenScores.set(index, score);
        }
      }
      const combined = new Map<number, number>();
      for (const [index, score] of tokenScores) {
        const sofar: number | undefined = scores ? scores.get(index) : 0;
        if (sofar !== undefined) combined.set(index, sofar + score);
      }
      scores = combined;
      if (scores.size === 0) return [];
    }
    const hits: RankedHit[] = [];
    for (const [index, total] of scores ?? []) {
      const { toolID, modifiedAtMs } = this.prepared[index]!.document;
      if (exclude.has(toolID) || !accept(toolID)) continue;
      hits.push({ toolID, key: [2, Math.round((total / tokens.length) * 1000), -modifiedAtMs, toolID] });
    }
    return sortHits(hits);
  }

  /** Words of the index within fuse.js's threshold of `token`, with their scores (0 is exact). */
  private similarWords(token: string): { word: string; score: number }[] {
    const grams = bigramsOf([token]);
    const allowedTypos = Math.floor((FUSE_OPTIONS.threshold ?? 0.35) * [...token].length);
    const needed = Math.max(1, grams.size - 2 * allowedTypos);
    const shared = new Map<number, number>();
    for (const gram of grams) {
      for (const index of this.wordsByBigram.get(gram) ?? []) shared.set(index, (shared.get(index) ?? 0) + 1);
    }
    const candidates: string[] = [];
    for (const [index, count] of shared) if (count >= needed) candidates.push(this.fuzzyWords[index]!);
    if (candidates.length === 0) return [];
    return new Fuse(candidates, WORD_FUSE_OPTIONS).search(token).map((result) => ({ word: result.item, score: result.score ?? 1 }));
  }
}

const WORD_FUSE_OPTIONS: IFuseOptions<string> = {
  includeScore: true,
  ignoreLocation: true,
  threshold: FUSE_OPTIONS.threshold,
  minMatchCharLength: FUSE_OPTIONS.minMatchCharLength,
};

export function sortHits(hits: RankedHit[]): RankedHit[] {
  return hits.sort((a, b) => {
    const [x, y] = [a.key, b.key];
    return x[0] - y[0] || x[1] - y[1] || x[2] - y[2] || (x[3] < y[3] ? -1 : x[3] > y[3] ? 1 : 0);
  });
}

import Fuse, { type IFuseOptions } from 'fuse.js';

/** What search knows of a tool: the fields people type, and when it last changed. */
export interface SearchDocument {
  toolID: string;
  slug: string;
  displayName: string;
  description: string;
  tags: string[];
  modifiedAtMs: number;
}

export interface RankedHit {
  toolID: string;
  /** Sort key: tier (0 prefix, 1 whole word, 2 fuzzy), fuzzy score, recency, id. */
  key: [number, number, number, string];
}

export const FUSE_OPTIONS: IFuseOptions<SearchDocument> = {
  keys: [
    { name: 'slug', weight: 3 },
    { name: 'displayName', weight: 3 },
    { name: 'tags', weight: 2 },
    { name: 'description', weight: 1 },
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
}

const WORD_SPLIT = /[^\p{L}\p{M}\p{N}]+/u;

function normalize(text: string): string {
  return text.normalize('NFC').toLowerCase();
}

/**
 * Ranked tool search: a prefix of the slug or display name beats a whole-word
 * match anywhere, which beats a fuzzy match (fuse.js); recency breaks ties.
 * Built once per store revision, then each query is a Fuse search plus one
 * linear pass.
 */
export class ToolSearchIndex {
  private readonly prepared: Prepared[];
  private readonly fuse: Fuse<SearchDocument>;

  constructor(documents: SearchDocument[]) {
    this.prepared = documents.map((document) => ({
      document,
      slug: normalize(document.slug),
      displayName: normalize(document.displayName),
      words: new Set(
        [document.slug, document.displayName, document.description, ...document.tags]
          .flatMap((field) => normalize(field).split(WORD_SPLIT))
          .filter(Boolean),
      ),
    }));
    this.fuse = new Fuse(documents, FUSE_OPTIONS, Fuse.createIndex(FUSE_OPTIONS.keys!, documents));
  }

  /** Every match for `query` that `accept` lets through, best first. */
  search(query: string, accept: (toolID: string) => boolean): RankedHit[] {
    const wanted = normalize(query).trim();
    const hits = new Map<string, RankedHit>();
    const add = (document: SearchDocument, tier: number, score: number) => {
      if (hits.has(document.toolID) || !accept(document.toolID)) return;
      hits.set(document.toolID, { toolID: document.toolID, key: [tier, score, -document.modifiedAtMs, document.toolID] });
    };
    if (!wanted) {
      for (const { document } of this.prepared) add(document, 0, 0);
    } else {
      const tokens = wanted.split(/\s+/);
      for (const entry of this.prepared) {
        if (entry.slug.startsWith(wanted) || entry.displayName.startsWith(wanted)) add(entry.document, 0, 0);
      }
      for (const entry of this.prepared) {
        if (tokens.every((token) => entry.words.has(token))) add(entry.document, 1, 0);
      }
      for (const result of this.fuse.search(wanted)) {
        add(result.item, 2, Math.round((result.score ?? 1) * 1000));
      }
    }
    return [...hits.values()].sort((a, b) => compareHitKeys(a.key, b.key));
  }
}

function compareHitKeys(a: RankedHit['key'], b: RankedHit['key']): number {
  return a[0] - b[0] || a[1] - b[1] || a[2] - b[2] || (a[3] < b[3] ? -1 : a[3] > b[3] ? 1 : 0);
}

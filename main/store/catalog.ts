import type { BundleEntry } from '../../shared/schemas/bundle.js';
import type { ToolEntry } from '../../shared/schemas/tool.js';
import { sortHits, ToolSearchIndex, WORD_TIER, type RankedHit, type SearchDocument } from '../search/tool-search.js';
import { compareKeys, paginate, type SortKey } from './paging.js';
import type { BundleRecord, ToolRecord } from './records.js';
import { BUILTINS_SOURCE, FILES_SOURCE } from './records.js';
import type { ToolStore } from './tool-store.js';
import { bundleEntry, isBundleListed, isToolListed, toolEntry, type ToolReadiness } from './views.js';

export interface Page<T> {
  items: T[];
  nextPageToken?: string;
}

const DEFAULT_PAGE_SIZE = 50;

/** The full-text ranking a model's tool search uses: the matches for a query among some tools, each with its score. */
export type Relevance = (query: string, among: ReadonlySet<string>, limit: number) => { toolID: string; score: number }[];

/** Read side of the store: lists, search and single lookups, as API entries. */
export class ToolCatalog {
  private searchIndex: ToolSearchIndex | null = null;
  private indexedRevision = -1;

  constructor(
    private readonly store: ToolStore,
    private readonly readiness: ToolReadiness,
    /** Orders the tools whose text has every word typed ("create issue"): by relevance, as tool search does, not by date. */
    private readonly relevance?: Relevance,
  ) {}

  listBundles(options: { bundleIDs?: string[]; includeDisabled?: boolean; pageSize?: number; pageToken?: string }): Page<BundleEntry> {
    const wanted = options.bundleIDs ? new Set(options.bundleIDs) : null;
    const records = [...this.store.allBundles()].filter(
      (record) => (!wanted || wanted.has(record.bundleID)) && isBundleListed(this.store, record, options.includeDisabled ?? false),
    );
    const keyed = records.map((record) => ({ record, key: bundleSortKey(record) })).sort((a, b) => compareKeys(a.key, b.key));
    const page = paginate(keyed, (item) => item.key, {
      pageSize: options.pageSize ?? DEFAULT_PAGE_SIZE,
      pageToken: options.pageToken,
      scope: 'bundles.list',
    });
    return { items: page.items.map(({ record }) => bundleEntry(this.store, record)), nextPageToken: page.nextPageToken };
  }

  listTools(options: {
    tags?: string[];
    bundleIDs?: string[];
    includeDisabled?: boolean;
    pageSize?: number;
    pageToken?: string;
  }): Page<ToolEntry> {
    const bundles = options.bundleIDs ? new Set(options.bundleIDs) : null;
    const tags = options.tags ?? [];
    const records = [...this.store.allTools()].filter(
      (record) =>
        (!bundles || bundles.has(record.bundleID)) &&
        (tags.length === 0 || (record.kind === 'valid' && tags.every((tag) => record.tool.tags.includes(tag)))) &&
        isToolListed(this.store, record, options.includeDisabled ?? false),
    );
    const keyed = records.map((record) => ({ record, key: toolSortKey(record) })).sort((a, b) => compareKeys(a.key, b.key));
    const page = paginate(keyed, (item) => item.key, {
      pageSize: options.pageSize ?? DEFAULT_PAGE_SIZE,
      pageToken: options.pageToken,
      scope: 'tools.list',
    });
    return { items: page.items.map(({ record }) => this.entry(record)), nextPageToken: page.nextPageToken };
  }

  searchTools(options: { q: string; includeDisabled?: boolean; pageSize?: number; pageToken?: string }): Page<ToolEntry> {
    const includeDisabled = options.includeDisabled ?? false;
    const accept = (toolID: string) => {
      const record = this.store.toolByID(toolID);
      return !!record && isToolListed(this.store, record, includeDisabled);
    };
    const request = {
      pageSize: options.pageSize ?? DEFAULT_PAGE_SIZE,
      pageToken: options.pageToken,
      scope: `tools.search:${options.q.normalize('NFC').trim().toLowerCase()}`,
    };
    const index = this.index();
    const primary = this.byRelevance(options.q, index.rankPrimary(options.q, accept));
    let page = paginate(primary, (hit) => hit.key, request);
    // Fuzzy matches rank after every prefix and word match, so they are only
    // worked out when this page reaches past those.
    if (!page.nextPageToken) {
      const fuzzy = index.rankFuzzy(options.q, accept, new Set(primary.map((hit) => hit.toolID)));
      page = paginate([...primary, ...fuzzy], (hit) => hit.key, request);
    }
    return {
      items: page.items.map((hit) => this.entry(this.store.toolByID(hit.toolID)!)),
      nextPageToken: page.nextPageToken,
    };
  }

  /**
   * Prefix matches of a name stay first (a person typing a name); the tools that only have every word somewhere follow
   * in the order the full-text index ranks them (the tool whose name says "create issue" before the dozens whose
   * description mentions both words); equally relevant ones by date, as before.
   */
  private byRelevance(query: string, hits: RankedHit[]): RankedHit[] {
    const wordHits = hits.filter((hit) => hit.key[0] === WORD_TIER);
    // One word: every hit has it, and date is as good an order; scoring thousands of hits per keystroke is not free.
    if (!this.relevance || wordHits.length < 2 || !/\S\s+\S/.test(query.trim())) return hits;
    const scores = new Map(this.relevance(query, new Set(wordHits.map((hit) => hit.toolID)), wordHits.length).map((hit) => [hit.toolID, hit.score]));
    // Rounded, so tools whose texts weigh the same are equals, and the newer comes first.
    for (const hit of wordHits) hit.key = [WORD_TIER, -Math.round((scores.get(hit.toolID) ?? 0) * 1_000), hit.key[2], hit.key[3]];
    return sortHits(hits);
  }

  entry(record: ToolRecord): ToolEntry {
    return toolEntry(this.store, record, this.readiness);
  }

  bundleEntry(record: BundleRecord): BundleEntry {
    return bundleEntry(this.store, record);
  }

  /** The search index for the store as it is now, rebuilt when the store changed since. */
  private index(): ToolSearchIndex {
    if (!this.searchIndex || this.indexedRevision !== this.store.revision) {
      this.indexedRevision = this.store.revision;
      this.searchIndex = new ToolSearchIndex(catalogSearchDocuments(this.store));
    }
    return this.searchIndex;
  }
}

/** The documents search indexes, for the benchmark's bare-Fuse baseline. */
export function catalogSearchDocuments(store: ToolStore): SearchDocument[] {
  return [...store.allTools()].map(searchDocument);
}

export function searchDocument(record: ToolRecord): SearchDocument {
  if (record.kind === 'valid') {
    const { tool } = record;
    return {
      toolID: record.toolID,
      slug: tool.slug,
      displayName: tool.displayName,
      description: tool.description,
      tags: tool.tags,
      modifiedAtMs: Date.parse(tool.modifiedAt),
    };
  }
  return {
    toolID: record.toolID,
    slug: record.salvage.slug ?? '',
    displayName: record.salvage.displayName ?? '',
    description: '',
    tags: [],
    modifiedAtMs: 0,
  };
}

function bundleSortKey(record: BundleRecord): SortKey {
  if (record.kind === 'invalid') return [2, (record.salvage.displayName ?? '').toLowerCase(), record.bundleID];
  // Built-ins first, then the person's own bundles, then other sources (MCP servers).
  return [record.source === BUILTINS_SOURCE ? 0 : record.source === FILES_SOURCE ? 1 : 2, record.bundle.displayName.toLowerCase(), record.bundleID];
}

function toolSortKey(record: ToolRecord): SortKey {
  const identity = record.kind === 'valid' ? record.tool : record.salvage;
  return [(identity.displayName ?? '').toLowerCase(), identity.slug ?? '', identity.version ?? '', record.toolID];
}


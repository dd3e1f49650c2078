import { compareVersions } from '../../shared/tools/tool-versions.js';
import type { BundleRecord, ToolRecord, ValidTool } from './records.js';

/**
 * The store's index in memory: every bundle and tool record by id, the
 * tools of each bundle, and a count of changes per bundle (so a re-read that
 * raced a write can tell) and in all (so caches can tell).
 */
export class RecordIndex {
  readonly bundles = new Map<string, BundleRecord>();
  readonly tools = new Map<string, ToolRecord>();
  readonly toolsByBundle = new Map<string, Set<string>>();
  private readonly epochs = new Map<string, number>();
  /** Each bundle's versions of each slug, oldest first, as of the bundle's epoch. */
  private readonly versionCache = new Map<string, { epoch: number; bySlug: Map<string, ValidTool[]>; sorted: Set<string> }>();
  /** Increases on every change; caches (the search index) compare it. */
  revision = 0;

  /** How many times this bundle's records changed in memory. */
  epochOf(bundleID: string): number {
    return this.epochs.get(bundleID) ?? 0;
  }

  touched(bundleID: string): void {
    this.epochs.set(bundleID, this.epochOf(bundleID) + 1);
  }

  setBundle(record: BundleRecord): void {
    this.bundles.set(record.bundleID, record);
    this.touched(record.bundleID);
  }

  rememberTool(record: ToolRecord): void {
    const previous = this.tools.get(record.toolID);
    if (previous && previous.bundleID !== record.bundleID) {
      this.toolsByBundle.get(previous.bundleID)?.delete(record.toolID);
      this.touched(previous.bundleID);
    }
    this.touched(record.bundleID);
    this.tools.set(record.toolID, record);
    let set = this.toolsByBundle.get(record.bundleID);
    if (!set) this.toolsByBundle.set(record.bundleID, (set = new Set()));
    set.add(record.toolID);
  }

  forgetTool(toolID: string): void {
    const previous = this.tools.get(toolID);
    if (!previous) return;
    this.tools.delete(toolID);
    this.toolsByBundle.get(previous.bundleID)?.delete(toolID);
    this.touched(previous.bundleID);
  }

  forgetBundle(bundleID: string): void {
    for (const toolID of this.toolsByBundle.get(bundleID) ?? []) this.tools.delete(toolID);
    this.toolsByBundle.delete(bundleID);
    this.bundles.delete(bundleID);
    this.versionCache.delete(bundleID);
    this.touched(bundleID);
  }

  /** The tool at <bundle, slug, version> in memory (slug and version already in NFC). */
  find(bundleID: string, slug: string, version: string): ToolRecord | undefined {
    for (const toolID of this.toolsByBundle.get(bundleID) ?? []) {
      const record = this.tools.get(toolID)!;
      const identity = record.kind === 'valid' ? record.tool : record.salvage;
      if (identity.slug === slug && identity.version === version) return record;
    }
    return undefined;
  }

  /**
   * The versions of one tool in its bundle, oldest first (in the order people write them, compareVersions; the last
   * is the latest, as whole bundles offer it): the
   * lists say which version a row is when there are two, and the MCP server shares the latest.
   */
  versionsOf(bundleID: string, slug: string): readonly ValidTool[] {
    const epoch = this.epochOf(bundleID);
    let cached = this.versionCache.get(bundleID);
    if (!cached || cached.epoch !== epoch) {
      const bySlug = new Map<string, ValidTool[]>();
      for (const record of this.validToolsOf(bundleID)) {
        const versions = bySlug.get(record.tool.slug);
        if (versions) versions.push(record);
        else bySlug.set(record.tool.slug, [record]);
      }
      cached = { epoch, bySlug, sorted: new Set() };
      this.versionCache.set(bundleID, cached);
    }
    // Sorted per slug when first asked: a save changes the bundle's epoch, and sorting every tool of the bundle
    // for the one saved was most of the cost of a save.
    const versions = cached.bySlug.get(slug) ?? [];
    if (versions.length > 1 && !cached.sorted.has(slug)) {
      versions.sort((a, b) => compareVersions(a.tool.version, b.tool.version));
      cached.sorted.add(slug);
    }
    return versions;
  }

  /** The readable tools of one bundle (an export, an import's plan). */
  validToolsOf(bundleID: string): ValidTool[] {
    return [...(this.toolsByBundle.get(bundleID) ?? [])].map((toolID) => this.tools.get(toolID)).filter((record): record is ValidTool => record?.kind === 'valid');
  }

  toolIDsOf(bundleID: string): string[] {
    return [...(this.toolsByBundle.get(bundleID) ?? [])];
  }
}

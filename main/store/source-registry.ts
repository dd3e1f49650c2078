import { ToolbeltError } from '../../shared/errors.js';
import type { Logger } from '../log.js';
import type { DocumentValidator } from './document-validation.js';
import type { RecordIndex } from './record-index.js';
import { FILES_SOURCE, type BundleRecord, type ToolRecord } from './records.js';
import type { ReadOnlySource } from './sources.js';
import type { ValidationCache } from './validation-cache.js';

/**
 * The sources of tools besides the data folder's files: the built-ins and
 * each MCP server. Their records live in the same index as the files'; their
 * on/off switches in files of their own; an edit of one of their bundles is
 * refused with the source's own code and sentence.
 */
export class SourceRegistry {
  private readonly sources = new Map<string, ReadOnlySource>();
  private readonly subscriptions = new Map<string, () => void>();

  constructor(
    private readonly index: RecordIndex,
    private readonly deps: {
      validator: DocumentValidator;
      cache: ValidationCache;
      log: Logger;
      /** Bundles whose records a source changed. */
      changed: (bundleIDs: string[]) => void;
    },
    initial: readonly ReadOnlySource[],
  ) {
    for (const source of initial) this.sources.set(source.id, source);
  }

  /** The sources given at start into the index, with their switches. */
  async loadAll(): Promise<void> {
    for (const source of this.sources.values()) this.load(source);
    await Promise.all([...this.sources.values()].map((source) => source.switches.load()));
  }

  /**
   * Adds a source of tools while the app runs (an MCP server, say): its
   * tools are listed, searched, switched and run like the files' from now on,
   * and follow the changes it reports.
   */
  async add(source: ReadOnlySource): Promise<void> {
    if (this.sources.has(source.id)) throw new ToolbeltError('conflict', `A source named ${source.id} is already there.`);
    this.sources.set(source.id, source);
    await source.switches.load();
    this.resync(source);
    const unsubscribe = source.subscribe?.(() => this.resync(source));
    if (unsubscribe) this.subscriptions.set(source.id, unsubscribe);
  }

  /** Takes a source's tools away (an MCP server removed); its switches file stays for next time. */
  remove(sourceID: string): void {
    this.subscriptions.get(sourceID)?.();
    this.subscriptions.delete(sourceID);
    const bundleIDs = this.forget(sourceID);
    this.sources.delete(sourceID);
    if (bundleIDs.length) this.deps.changed(bundleIDs);
  }

  close(): void {
    for (const unsubscribe of this.subscriptions.values()) unsubscribe();
    this.subscriptions.clear();
  }

  /** The read-only source a record comes from; none for the files'. */
  sourceOf(record: BundleRecord | ToolRecord): ReadOnlySource | undefined {
    return record.kind === 'valid' ? this.sources.get(record.source) : undefined;
  }

  isBundleEnabled(record: BundleRecord): boolean {
    if (record.kind !== 'valid') return false;
    const source = this.sources.get(record.source);
    return source ? source.switches.isEnabled('bundles', record.bundleID, record.bundle.isEnabled) : record.bundle.isEnabled;
  }

  isToolEnabled(record: ToolRecord): boolean {
    if (record.kind !== 'valid') return false;
    const source = this.sources.get(record.source);
    return source ? source.switches.isEnabled('tools', record.toolID, record.tool.isEnabled) : record.tool.isEnabled;
  }

  /** Whether a bundle's files are Toolbelt's to write (false for built-ins and other read-only sources). */
  isWritable(record: BundleRecord): boolean {
    return record.kind === 'invalid' || record.source === FILES_SOURCE;
  }

  isReadOnlyBundle(bundleID: string): boolean {
    const record = this.index.bundles.get(bundleID);
    return record !== undefined && !this.isWritable(record);
  }

  /** Edits of a read-only source's bundle are refused with that source's code and sentence. */
  refuseReadOnly(bundleID: string, verb: string): void {
    const record = this.index.bundles.get(bundleID);
    const source = record ? this.sourceOf(record) : undefined;
    if (source) throw new ToolbeltError(source.refusal.code, source.refusal.message(verb));
  }

  private resync(source: ReadOnlySource): void {
    const before = this.forget(source.id);
    const after = this.load(source);
    this.deps.changed([...new Set([...before, ...after])]);
  }

  /** A source's records into the index; a bundle id another source already holds is left out and logged. */
  private load(source: ReadOnlySource): string[] {
    const { bundles, tools } = source.load({ validator: this.deps.validator, cache: this.deps.cache });
    const taken = new Set(bundles.filter((bundle) => this.index.bundles.has(bundle.bundleID)).map((bundle) => bundle.bundleID));
    for (const bundleID of taken) this.deps.log.warn('a source offers a bundle whose id is taken; it is left out', { source: source.id, bundleID });
    for (const bundle of bundles) if (!taken.has(bundle.bundleID)) this.index.bundles.set(bundle.bundleID, bundle);
    for (const tool of tools) if (!taken.has(tool.bundleID)) this.index.rememberTool(tool);
    return bundles.map((bundle) => bundle.bundleID).filter((bundleID) => !taken.has(bundleID));
  }

  private forget(sourceID: string): string[] {
    const bundleIDs = [...this.index.bundles.values()].filter((record) => record.kind === 'valid' && record.source === sourceID).map((record) => record.bundleID);
    for (const bundleID of bundleIDs) this.index.forgetBundle(bundleID);
    return bundleIDs;
  }
}

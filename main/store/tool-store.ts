import { rm } from 'node:fs/promises';
import path from 'node:path';
import { bundleFileFrom, checkedToolInput, fileInvalid, newToolFile, nfc, notFound } from './tool-files.js';
import { Drafts } from './drafts.js';
import { ToolbeltError } from '../../shared/errors.js';
import { BUNDLE_FILE_KEY_ORDER, type BundleFile, type BundleInput } from '../../shared/schemas/bundle.js';
import { TOOL_FILE_KEY_ORDER, type ToolFile, type ToolInput } from '../../shared/schemas/tool.js';
import type { Clock } from '../common/clock.js';
import type { Logger } from '../log.js';
import { refuseBadBundle } from './definition-checks.js';
import { FILES_SOURCE } from './records.js';
import { hasHooks, hooksDigest } from './bundle-hooks.js';
import type { ReadOnlySource } from './sources.js';
import type { DocumentValidator } from './document-validation.js';
import { withFileLock } from '../common/file-lock.js';
import { makePrivateFolder, stringifyStable, writeFileAtomically, writeFileAtomicallyMakingFolders } from '../common/json-files.js';
import type { StoreLayout } from './layout.js';
import { readBundleRecord, readToolRecord, type BundleRecord, type ToolRecord, type ValidTool } from './records.js';
import { UsageBook } from './usage.js';
import { FolderSync } from './folder-sync.js';
import { Reaper } from './reaper.js';
import { RecordIndex } from './record-index.js';
import { SourceRegistry } from './source-registry.js';
import { clearAbandonedStaging, writeStagedBundle } from './staged-bundle.js';
import { ValidationCache } from './validation-cache.js';

export interface StoreChange {
  bundleIDs: string[];
  toolIDs: string[];
}

export interface ToolStoreOptions {
  layout: StoreLayout;
  validator: DocumentValidator;
  clock: Clock;
  log: Logger;
  /** Called after every change, from the API or from disk. */
  onChange: (change: StoreChange, source: 'api' | 'disk') => void;
  /** Sources of tools besides the files: the built-ins, and (next) MCP servers. */
  readOnlySources?: ReadOnlySource[];
}

type ValidBundle = Extract<BundleRecord, { kind: 'valid' }>;

/**
 * Bundles and tools: files on disk are the truth, this is their index in
 * memory. Writes take the bundle's cross-process lock, re-read what another
 * process may have written, then write atomically.
 */
export class ToolStore {
  private readonly index = new RecordIndex();
  private readonly validationCache: ValidationCache;
  /** The read-only sources (built-ins, MCP servers): add and remove them here. */
  readonly sources: SourceRegistry;
  private readonly folders: FolderSync;
  /** Deleted bundles' folders, and "Remove" of a folder that is not a working bundle. */
  readonly reaper: Reaper;
  readonly usage: UsageBook;
  /** Drafts checked and tried as tools.put would take them, never written. */
  readonly drafts: Drafts;

  private constructor(private readonly options: ToolStoreOptions) {
    this.usage = new UsageBook(options.layout, options.log, options.clock);
    this.drafts = new Drafts(this, options.validator, () => this.now());
    this.validationCache = new ValidationCache(path.join(options.layout.root, 'cache', 'validated-tools.json'), options.layout.root);
    this.sources = new SourceRegistry(
      this.index,
      {
        validator: options.validator,
        cache: this.validationCache,
        log: options.log,
        changed: (bundleIDs) => {
          this.index.revision++;
          this.options.onChange({ bundleIDs, toolIDs: [] }, 'disk');
        },
      },
      options.readOnlySources ?? [],
    );
    this.folders = new FolderSync({ layout: options.layout, validator: options.validator, cache: this.validationCache, log: options.log }, this.index, this.sources);
    this.reaper = new Reaper(
      { layout: options.layout, validator: options.validator, clock: options.clock, underBundleLock: (bundleID, work) => this.underBundleLock(bundleID, work), changed: (bundleIDs) => this.changed({ bundleIDs, toolIDs: [] }) },
      this.index,
      this.sources,
    );
  }

  static async open(options: ToolStoreOptions): Promise<ToolStore> {
    const store = new ToolStore(options);
    await store.loadEverything();
    await clearAbandonedStaging(options.layout.root).catch((error: unknown) => options.log.warn('could not clear an unfinished import', { error: String(error) }));
    return store;
  }

  /** Increases on every change; caches (the search index) compare it. */
  get revision(): number {
    return this.index.revision;
  }

  // ── reading ──────────────────────────────────────────────────────────

  allBundles(): IterableIterator<BundleRecord> {
    return this.index.bundles.values();
  }

  allTools(): IterableIterator<ToolRecord> {
    return this.index.tools.values();
  }

  toolByID(toolID: string): ToolRecord | undefined {
    return this.index.tools.get(toolID);
  }

  bundle(bundleID: string): BundleRecord | undefined {
    return this.index.bundles.get(bundleID);
  }

  /** The readable tools of one bundle, from the index (an export, an import's plan). */
  validToolsOf(bundleID: string): ValidTool[] {
    return this.index.validToolsOf(bundleID);
  }

  toolCount(bundleID: string): number {
    return this.index.toolsByBundle.get(bundleID)?.size ?? 0;
  }

  /** The tool at <bundle, slug, version>, looking on disk when another process may have made it. */
  async findTool(bundleID: string, slug: string, version: string): Promise<ToolRecord | undefined> {
    const found = this.index.find(bundleID, nfc(slug), nfc(version));
    if (found || this.sources.isReadOnlyBundle(bundleID)) return found;
    await this.refreshBundle(bundleID, { rereadKnown: false });
    return this.index.find(bundleID, nfc(slug), nfc(version));
  }

  /** The versions of a tool in its bundle, oldest first; the last is the latest. */
  versionsOf(bundleID: string, slug: string): readonly ValidTool[] {
    return this.index.versionsOf(bundleID, slug);
  }

  isBundleEnabled(record: BundleRecord): boolean {
    return this.sources.isBundleEnabled(record);
  }

  isToolEnabled(record: ToolRecord): boolean {
    return this.sources.isToolEnabled(record);
  }

  /** Whether a bundle's files are Toolbelt's to write (false for built-ins and other read-only sources). */
  isWritable(record: BundleRecord): boolean {
    return this.sources.isWritable(record);
  }

  // ── bundles ──────────────────────────────────────────────────────────

  async putBundle(bundleID: string, input: BundleInput): Promise<{ bundle: ValidBundle; created: boolean }> {
    this.sources.refuseReadOnly(bundleID, 'replace');
    refuseBadBundle(input);
    const result = await this.underBundleLock(bundleID, async () => {
      const existing = await readBundleRecord(this.options.layout, this.options.validator, bundleID);
      const now = this.now();
      const slug = nfc(input.slug);
      const description = input.description ?? '';
      const previous = existing?.kind === 'valid' ? existing.bundle : null;
      const structural =
        !previous ||
        previous.slug !== slug ||
        previous.displayName !== input.displayName ||
        previous.description !== description ||
        JSON.stringify(previous.http) !== JSON.stringify(input.http) ||
        JSON.stringify(previous.hooks) !== JSON.stringify(input.hooks);
      const bundle = bundleFileFrom(bundleID, input, { createdAt: previous?.createdAt ?? now, modifiedAt: structural ? now : previous.modifiedAt });
      // What the person switched on stays with the bundle; hooks changed since no longer match it, so they are off.
      if (previous?.hooksSwitchedOn) bundle.hooksSwitchedOn = previous.hooksSwitchedOn;
      await makePrivateFolder(this.options.layout.toolsDir(bundleID));
      const record = await this.writeBundle(bundle);
      return { bundle: record, created: existing === null };
    });
    await this.refreshBundle(bundleID);
    this.changed({ bundleIDs: [bundleID], toolIDs: [] });
    return result;
  }

  /** Switches a bundle's hooks on (exactly those whose digest the person saw) or off. */
  async switchBundleHooks(bundleID: string, on: string | false): Promise<BundleRecord> {
    this.sources.refuseReadOnly(bundleID, 'replace');
    const record = await this.underBundleLock(bundleID, async () => {
      const { hooksSwitchedOn: _previous, ...fresh } = (await this.requireLiveBundleOnDisk(bundleID)).bundle;
      if (on === false) return this.writeBundle(fresh);
      if (!hasHooks(fresh.hooks)) throw new ToolbeltError('conflict', `“${fresh.displayName}” has no hooks to switch on.`);
      if (hooksDigest(fresh.hooks) !== on) throw new ToolbeltError('conflict', `The hooks of “${fresh.displayName}” changed since you read them. Read them again before switching them on.`);
      return this.writeBundle({ ...fresh, hooksSwitchedOn: on });
    });
    this.changed({ bundleIDs: [bundleID], toolIDs: [] });
    return record;
  }

  async setBundleEnabled(bundleID: string, isEnabled: boolean): Promise<BundleRecord> {
    const current = this.index.bundles.get(bundleID);
    const readOnly = current ? this.sources.sourceOf(current) : undefined;
    if (current && readOnly) {
      await readOnly.switches.set('bundles', bundleID, isEnabled);
      this.changed({ bundleIDs: [bundleID], toolIDs: [] });
      return current;
    }
    const record = await this.underBundleLock(bundleID, async () => {
      const fresh = await this.requireLiveBundleOnDisk(bundleID);
      return this.writeBundle({ ...fresh.bundle, isEnabled });
    });
    this.changed({ bundleIDs: [bundleID], toolIDs: [] });
    return record;
  }

  async softDeleteBundle(bundleID: string): Promise<void> {
    this.sources.refuseReadOnly(bundleID, 'delete');
    await this.underBundleLock(bundleID, async () => {
      const fresh = await this.requireLiveBundleOnDisk(bundleID);
      await this.writeBundle({ ...fresh.bundle, softDeletedAt: this.now() });
    });
    this.changed({ bundleIDs: [bundleID], toolIDs: [...(this.index.toolsByBundle.get(bundleID) ?? [])] });
  }

  // ── tools ────────────────────────────────────────────────────────────

  async putTool(bundleID: string, slugParam: string, versionParam: string, input: ToolInput): Promise<ValidTool> {
    const slug = nfc(slugParam);
    const version = nfc(versionParam);
    const bundle = await this.requireBundle(bundleID, { includeSoftDeleted: true });
    this.sources.refuseReadOnly(bundleID, 'add tools to');
    this.requireWritableBundle(bundle);
    const mismatch = (['bundleID', 'slug', 'version'] as const).filter(
      (key) => input[key] !== undefined && nfc(input[key]) !== { bundleID, slug, version }[key],
    );
    if (mismatch.length) {
      throw new ToolbeltError('invalid_params', `${mismatch.join(', ')} in the body must match the URL.`, {
        issues: mismatch.map((key) => ({ path: `/${key}`, message: 'does not match the URL' })),
      });
    }
    const tool = newToolFile(checkedToolInput(this.options.validator, input, 'tool'), { bundleID, slug, version }, this.now());
    const record = await this.underBundleLock(bundleID, async () => {
      await this.refreshBundle(bundleID, { rereadKnown: false });
      const fresh = this.index.bundles.get(bundleID);
      if (!fresh || fresh.kind !== 'valid') throw notFound(`Bundle ${bundleID} no longer exists.`);
      this.requireWritableBundle(fresh);
      const taken = this.index.find(bundleID, slug, version);
      if (taken) {
        throw new ToolbeltError('conflict', `A tool "${slug}" version "${version}" already exists in this bundle.`, {
          toolID: taken.toolID,
        });
      }
      return this.writeTool(tool);
    });
    this.changed({ bundleIDs: [bundleID], toolIDs: [record.toolID] });
    return record;
  }

  /**
   * Many tools in one step, under one lock: an import. Into a new bundle
   * (`bundle` given), the bundle folder is written whole and then appears
   * (see writeStagedBundle); into an existing one, each tool file is
   * written atomically and a conflict on any refuses them all before the
   * first is written. Every definition is checked before anything is.
   */
  async putTools(bundleID: string, bundle: BundleInput | null, tools: { slug: string; version: string; input: ToolInput }[]): Promise<{ created: boolean; written: ValidTool[] }> {
    this.sources.refuseReadOnly(bundleID, 'add tools to');
    if (bundle) refuseBadBundle(bundle);
    const files = tools.map(({ slug, version, input }) => newToolFile(checkedToolInput(this.options.validator, input, 'tool'), { bundleID, slug: nfc(slug), version: nfc(version) }, this.now()));
    const result = await this.underBundleLock(bundleID, async () => {
      const existing = await readBundleRecord(this.options.layout, this.options.validator, bundleID);
      if (bundle && existing) throw new ToolbeltError('conflict', `Bundle ${bundleID} already exists; import into it or choose a new bundle.`);
      if (!bundle) {
        const fresh = await this.requireLiveBundleOnDisk(bundleID);
        this.requireWritableBundle(fresh);
        await this.refreshBundle(bundleID, { rereadKnown: false });
        const taken = files.find((tool) => this.index.find(bundleID, tool.slug, tool.version));
        if (taken) throw new ToolbeltError('conflict', `A tool "${taken.slug}" version "${taken.version}" already exists in this bundle; nothing was imported.`);
        const written: ValidTool[] = [];
        for (const tool of files) written.push(await this.writeTool(tool));
        return { created: false, written };
      }
      const now = this.now();
      const bundleFile = bundleFileFrom(bundleID, bundle, { createdAt: now, modifiedAt: now });
      const { layout } = this.options;
      const toolFiles = files.map((tool) => ({ tool, relativePath: path.join('tools', `${tool.toolID}.json`), text: stringifyStable({ ...tool }, TOOL_FILE_KEY_ORDER) }));
      await writeStagedBundle(layout.root, layout.bundleDir(bundleID), [{ relativePath: 'bundle.json', text: stringifyStable({ ...bundleFile }, BUNDLE_FILE_KEY_ORDER) }, ...toolFiles]);
      // Made from definitions checked above, and remembered as written, as writeTool's are: read back, GitHub's
      // 1,221 files made a second copy of every schema in the host's heap at once (~50 MB at its peak).
      for (const { tool, text } of toolFiles) {
        const digest = ValidationCache.digest(text);
        this.validationCache.written(tool.toolID, digest);
        this.index.rememberTool({ kind: 'valid', toolID: tool.toolID, bundleID, tool, digest, source: FILES_SOURCE });
      }
      return { created: true, written: [] as ValidTool[] };
    });
    // The bundle's own file, and what another process may have added meanwhile; an existing bundle's tools are read again.
    await this.refreshBundle(bundleID, { rereadKnown: !result.created });
    const written = result.created ? files.map((tool) => this.toolByID(tool.toolID)).filter((record): record is ValidTool => record?.kind === 'valid') : result.written;
    this.changed({ bundleIDs: [bundleID], toolIDs: written.map((record) => record.toolID) });
    return { created: result.created, written };
  }

  async setToolEnabled(bundleID: string, slug: string, version: string, isEnabled: boolean): Promise<ToolRecord> {
    const bundle = await this.requireBundle(bundleID, { includeSoftDeleted: true });
    this.requireWritableBundle(bundle, 'changed');
    const record = await this.requireTool(bundleID, slug, version);
    const readOnly = this.sources.sourceOf(record);
    if (readOnly) {
      await readOnly.switches.set('tools', record.toolID, isEnabled);
      this.changed({ bundleIDs: [bundleID], toolIDs: [record.toolID] });
      return record;
    }
    const updated = await this.underBundleLock(bundleID, async () => {
      const fresh = await readToolRecord(this.options.layout, this.options.validator, bundleID, record.toolID, this.validationCache);
      if (!fresh) throw notFound(`Tool "${slug}" version "${version}" no longer exists.`);
      if (fresh.kind !== 'valid') throw fileInvalid(fresh.file, fresh.reason);
      return this.writeTool({ ...fresh.tool, isEnabled });
    });
    this.changed({ bundleIDs: [bundleID], toolIDs: [updated.toolID] });
    return updated;
  }

  async deleteTool(bundleID: string, slug: string, version: string): Promise<void> {
    this.sources.refuseReadOnly(bundleID, 'delete tools of');
    const record = await this.requireTool(bundleID, slug, version, { includeSoftDeleted: true });
    await this.underBundleLock(bundleID, async () => {
      await rm(this.options.layout.toolFile(bundleID, record.toolID), { force: true });
    });
    this.index.forgetTool(record.toolID);
    await this.usage.forget(record.toolID);
    this.changed({ bundleIDs: [bundleID], toolIDs: [record.toolID] });
  }

  /** The tool at <bundle, slug, version>, or `not_found`; hidden with its soft-deleted bundle. */
  requireTool(bundleID: string, slug: string, version: string, options: { includeSoftDeleted?: boolean } = {}): Promise<ToolRecord> {
    // Every call of a tool starts here: a tool already in memory is answered without the folder's awaits.
    const bundle = this.index.bundles.get(bundleID);
    const live = bundle?.kind === 'valid' && (!bundle.bundle.softDeletedAt || options.includeSoftDeleted);
    const known = live ? this.index.find(bundleID, nfc(slug), nfc(version)) : undefined;
    return known ? Promise.resolve(known) : this.requireToolFromFolder(bundleID, slug, version, options);
  }

  private async requireToolFromFolder(bundleID: string, slug: string, version: string, options: { includeSoftDeleted?: boolean }): Promise<ToolRecord> {
    const bundle = await this.requireBundle(bundleID, options);
    const record = await this.findTool(bundle.bundleID, slug, version);
    if (!record) throw notFound(`There is no tool "${slug}" version "${version}" in bundle ${bundleID}.`);
    return record;
  }

  /** A live (not soft-deleted) bundle or `not_found`. Invalid bundle files are `file_invalid`. */
  async requireBundle(bundleID: string, options: { includeSoftDeleted?: boolean } = {}): Promise<ValidBundle> {
    let record = this.index.bundles.get(bundleID);
    if (!record) {
      await this.refreshBundle(bundleID);
      record = this.index.bundles.get(bundleID);
    }
    if (!record) throw notFound(`There is no bundle ${bundleID}.`);
    if (record.kind !== 'valid') throw fileInvalid(record.file, record.reason);
    if (record.bundle.softDeletedAt && !options.includeSoftDeleted) {
      throw notFound(`Bundle ${bundleID} was deleted. Put it again to restore it.`);
    }
    return record;
  }

  // ── disk ─────────────────────────────────────────────────────────────

  /** Re-reads one bundle folder; whether anything differed from memory (see FolderSync.refreshBundle). */
  refreshBundle(bundleID: string, options: { rereadKnown: boolean } = { rereadKnown: true }): Promise<boolean> {
    return this.folders.refreshBundle(bundleID, options);
  }

  /** Re-reads bundles another program changed, and tells listeners what differed. */
  async syncFromDisk(bundleIDs: Iterable<string>): Promise<StoreChange> {
    const changed: string[] = [];
    for (const bundleID of bundleIDs) {
      if (await this.folders.refreshBundle(bundleID)) changed.push(bundleID);
    }
    if (changed.length) this.options.onChange({ bundleIDs: changed, toolIDs: [] }, 'disk');
    return { bundleIDs: changed, toolIDs: [] };
  }

  /** Re-reads the bundles folder: new bundle folders and vanished ones. */
  refreshAll(): Promise<string[]> {
    return this.folders.refreshAll();
  }

  async close(): Promise<void> {
    this.sources.close();
    await Promise.all([this.usage.flush(), this.validationCache.flush()]);
  }

  // ── internals ────────────────────────────────────────────────────────

  private async loadEverything(): Promise<void> {
    this.validationCache.loadSync();
    await Promise.all([this.sources.loadAll(), this.usage.load()]);
    this.folders.loadAll();
    this.validationCache.saveSoon((error) => this.options.log.warn('could not save the validation cache', { error: String(error) }));
    this.index.revision++;
  }

  private async writeBundle(bundle: BundleFile): Promise<ValidBundle> {
    const text = stringifyStable({ ...bundle }, BUNDLE_FILE_KEY_ORDER);
    await writeFileAtomically(this.options.layout.bundleFile(bundle.bundleID), text, { within: this.options.layout.root });
    const record: ValidBundle = { kind: 'valid', bundleID: bundle.bundleID, bundle, text, source: FILES_SOURCE };
    this.index.bundles.set(bundle.bundleID, record);
    this.index.touched(bundle.bundleID);
    return record;
  }

  private async writeTool(tool: ToolFile): Promise<ValidTool> {
    const text = stringifyStable({ ...tool }, TOOL_FILE_KEY_ORDER);
    const file = this.options.layout.toolFile(tool.bundleID, tool.toolID);
    // A bundle folder made by hand may have no tools/ yet.
    await writeFileAtomicallyMakingFolders(file, text, { within: this.options.layout.root });
    const record: ValidTool = { kind: 'valid', toolID: tool.toolID, bundleID: tool.bundleID, tool, digest: ValidationCache.digest(text), source: FILES_SOURCE };
    this.index.rememberTool(record);
    return record;
  }

  private async requireLiveBundleOnDisk(bundleID: string): Promise<ValidBundle> {
    const fresh = await readBundleRecord(this.options.layout, this.options.validator, bundleID);
    if (!fresh) throw notFound(`There is no bundle ${bundleID}.`);
    if (fresh.kind !== 'valid') throw fileInvalid(fresh.file, fresh.reason);
    if (fresh.bundle.softDeletedAt) throw notFound(`Bundle ${bundleID} was deleted. Put it again to restore it.`);
    this.index.bundles.set(bundleID, fresh);
    this.index.touched(bundleID);
    return fresh;
  }

  private requireWritableBundle(bundle: ValidBundle, verb = 'created'): void {
    if (bundle.bundle.softDeletedAt || !this.isBundleEnabled(bundle)) {
      throw new ToolbeltError(
        'bundle_disabled',
        `Bundle "${bundle.bundle.displayName}" is ${bundle.bundle.softDeletedAt ? 'deleted' : 'disabled'}; tools in it cannot be ${verb}. Enable the bundle first.`,
      );
    }
  }

  private underBundleLock<T>(bundleID: string, work: () => Promise<T>): Promise<T> {
    return withFileLock(this.options.layout.lockTarget(`bundle-${bundleID}`), work);
  }

  private now(): string {
    return this.options.clock.now().toISOString();
  }

  private changed(change: StoreChange): void {
    this.index.revision++;
    this.options.onChange(change, 'api');
  }
}

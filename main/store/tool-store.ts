import { rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { v7 as uuidv7 } from 'uuid';
import type { AgentImpl } from '../../shared/schemas/agent.js';
import { ToolbeltError, type ValidationIssue } from '../../shared/errors.js';
import { isSlug, isVersion, SLUG_HINT, VERSION_HINT } from '../../shared/schemas/ids.js';
import { BUNDLE_FILE_KEY_ORDER, type BundleFile, type BundleInput } from '../../shared/schemas/bundle.js';
import { TOOL_FILE_KEY_ORDER, type ToolFile, type ToolInput } from '../../shared/schemas/tool.js';
import type { Clock } from '../common/clock.js';
import type { Logger } from '../log.js';
import { describeIssues } from '../common/validation.js';
import { checkBundleHttp } from './definition-checks.js';
import { FILES_SOURCE } from './records.js';
import type { ReadOnlySource } from './sources.js';
import type { DocumentValidator } from './document-validation.js';
import { withFileLock } from '../common/file-lock.js';
import { makePrivateFolder, stringifyStable, writeFileAtomically, writeFileAtomicallyMakingFolders } from '../common/json-files.js';
import type { StoreLayout } from './layout.js';
import { inspectBundleFolder, removeOwnBundleFolder, whyKept } from './bundle-folder.js';
import {
  forEachLimited,
  listBundleIDs,
  listBundleIDsSync,
  listToolFolder,
  listToolFolderSync,
  readBundleRecord,
  readBundleRecordSync,
  readToolRecord,
  readToolRecordSync,
  strayToolRecord,
  type BundleRecord,
  type ToolRecord,
  type ValidTool,
} from './records.js';
import { UsageBook } from './usage.js';
import { clearAbandonedStaging, writeStagedBundle } from './staged-bundle.js';
import { ValidationCache } from './validation-cache.js';

export const SOFT_DELETE_RETENTION_MS = 2 * 24 * 60 * 60 * 1000;

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

// ASCII is its own NFC form: the common case skips normalising, which every lookup does.
const ASCII = /^[\x20-\x7e]*$/;
const nfc = (value: string) => (ASCII.test(value) ? value : value.normalize('NFC'));

/** bundle.json for what a person gave: defaults filled, built-in never. */
function bundleFileFrom(bundleID: string, input: BundleInput, times: { createdAt: string; modifiedAt: string }): BundleFile {
  return {
    schemaVersion: '1',
    bundleID,
    slug: nfc(input.slug),
    displayName: input.displayName,
    description: input.description ?? '',
    isEnabled: input.isEnabled ?? true,
    isBuiltIn: false,
    ...(input.http ? { http: input.http } : {}),
    ...times,
  };
}

/**
 * Bundles and tools: files on disk are the truth, this is their index in
 * memory. Writes take the bundle's cross-process lock, re-read what another
 * process may have written, then write atomically.
 */
export class ToolStore {
  private readonly bundles = new Map<string, BundleRecord>();
  private readonly tools = new Map<string, ToolRecord>();
  private readonly toolsByBundle = new Map<string, Set<string>>();
  /** Counts changes to each bundle's records in memory, so a re-read that raced a write can tell (refreshBundle). */
  private readonly epochs = new Map<string, number>();
  private revisionCounter = 0;
  /** Deleted bundles the reaper had to keep, with the reason: listed so a person can act. */
  private readonly reapBlocked = new Map<string, { folder: string; reason: string }>();
  private readonly validationCache: ValidationCache;
  readonly usage: UsageBook;
  private readonly readOnlySources = new Map<string, ReadOnlySource>();
  private readonly sourceSubscriptions = new Map<string, () => void>();

  private constructor(private readonly options: ToolStoreOptions) {
    this.usage = new UsageBook(options.layout, options.log);
    this.validationCache = new ValidationCache(path.join(options.layout.root, 'cache', 'validated-tools.json'), options.layout.root);
    for (const source of options.readOnlySources ?? []) this.readOnlySources.set(source.id, source);
  }

  static async open(options: ToolStoreOptions): Promise<ToolStore> {
    const store = new ToolStore(options);
    await store.loadEverything();
    await clearAbandonedStaging(options.layout.root).catch((error: unknown) => options.log.warn('could not clear an unfinished import', { error: String(error) }));
    return store;
  }

  /** Increases on every change; caches (the search index) compare it. */
  get revision(): number {
    return this.revisionCounter;
  }

  // ── reading ──────────────────────────────────────────────────────────

  allBundles(): IterableIterator<BundleRecord> {
    return this.bundles.values();
  }

  allTools(): IterableIterator<ToolRecord> {
    return this.tools.values();
  }

  toolByID(toolID: string): ToolRecord | undefined {
    return this.tools.get(toolID);
  }

  bundle(bundleID: string): BundleRecord | undefined {
    return this.bundles.get(bundleID);
  }

  /** The readable tools of one bundle, from the index (an export, an import's plan). */
  validToolsOf(bundleID: string): ValidTool[] {
    return [...(this.toolsByBundle.get(bundleID) ?? [])].map((toolID) => this.tools.get(toolID)).filter((record): record is ValidTool => record?.kind === 'valid');
  }

  toolCount(bundleID: string): number {
    return this.toolsByBundle.get(bundleID)?.size ?? 0;
  }

  /** The tool at <bundle, slug, version>, looking on disk when another process may have made it. */
  async findTool(bundleID: string, slug: string, version: string): Promise<ToolRecord | undefined> {
    const found = this.findInMemory(bundleID, nfc(slug), nfc(version));
    if (found || this.isReadOnlyBundle(bundleID)) return found;
    await this.refreshBundle(bundleID, { rereadKnown: false });
    return this.findInMemory(bundleID, nfc(slug), nfc(version));
  }

  isBundleEnabled(record: BundleRecord): boolean {
    if (record.kind !== 'valid') return false;
    const source = this.readOnlySources.get(record.source);
    return source ? source.switches.isEnabled('bundles', record.bundleID, record.bundle.isEnabled) : record.bundle.isEnabled;
  }

  isToolEnabled(record: ToolRecord): boolean {
    if (record.kind !== 'valid') return false;
    const source = this.readOnlySources.get(record.source);
    return source ? source.switches.isEnabled('tools', record.toolID, record.tool.isEnabled) : record.tool.isEnabled;
  }

  /** Whether a bundle's files are Toolbelt's to write (false for built-ins and other read-only sources). */
  isWritable(record: BundleRecord): boolean {
    return record.kind === 'invalid' || record.source === FILES_SOURCE;
  }

  // ── bundles ──────────────────────────────────────────────────────────

  async putBundle(bundleID: string, input: BundleInput): Promise<{ bundle: ValidBundle; created: boolean }> {
    this.refuseReadOnly(bundleID, 'replace');
    const problems = input.http ? checkBundleHttp(input.http) : [];
    if (problems.length > 0) {
      throw new ToolbeltError('invalid_params', `The bundle's connection settings are invalid: ${describeIssues(problems)}`, { issues: problems });
    }
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
        JSON.stringify(previous.http) !== JSON.stringify(input.http);
      const bundle = bundleFileFrom(bundleID, input, { createdAt: previous?.createdAt ?? now, modifiedAt: structural ? now : previous.modifiedAt });
      await makePrivateFolder(this.options.layout.toolsDir(bundleID));
      const record = await this.writeBundle(bundle);
      return { bundle: record, created: existing === null };
    });
    await this.refreshBundle(bundleID);
    this.changed({ bundleIDs: [bundleID], toolIDs: [] });
    return result;
  }

  async setBundleEnabled(bundleID: string, isEnabled: boolean): Promise<BundleRecord> {
    const current = this.bundles.get(bundleID);
    const readOnly = current?.kind === 'valid' ? this.readOnlySources.get(current.source) : undefined;
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
    this.refuseReadOnly(bundleID, 'delete');
    await this.underBundleLock(bundleID, async () => {
      const fresh = await this.requireLiveBundleOnDisk(bundleID);
      await this.writeBundle({ ...fresh.bundle, softDeletedAt: this.now() });
    });
    this.changed({ bundleIDs: [bundleID], toolIDs: [...(this.toolsByBundle.get(bundleID) ?? [])] });
  }

  /**
   * Removes the folders of bundles soft-deleted more than two days ago that
   * have no tools left. Removes only what Toolbelt wrote: a folder that
   * still holds a tool file, valid or not, or anything else stays; one with
   * files Toolbelt did not write is listed with the reason.
   */
  async reap(): Promise<string[]> {
    const removed: string[] = [];
    const cutoff = this.options.clock.now().getTime() - SOFT_DELETE_RETENTION_MS;
    for (const record of [...this.bundles.values()]) {
      if (record.kind !== 'valid' || record.source !== FILES_SOURCE || !record.bundle.softDeletedAt) continue;
      if (Date.parse(record.bundle.softDeletedAt) > cutoff) continue;
      const bundleID = record.bundleID;
      await this.underBundleLock(bundleID, async () => {
        const fresh = await readBundleRecord(this.options.layout, this.options.validator, bundleID);
        if (fresh?.kind !== 'valid' || !fresh.bundle.softDeletedAt) return;
        if (Date.parse(fresh.bundle.softDeletedAt) > cutoff) return;
        const contents = await inspectBundleFolder(this.options.layout, bundleID, true);
        const kept = whyKept(contents);
        if (kept) {
          if (contents.toolFiles === 0 && this.reapBlocked.get(bundleID)?.reason !== kept) {
            this.reapBlocked.set(bundleID, { folder: contents.folder, reason: kept });
            this.changed({ bundleIDs: [bundleID], toolIDs: [] });
          }
          return;
        }
        await removeOwnBundleFolder(contents);
        this.reapBlocked.delete(bundleID);
        this.forgetBundle(bundleID);
        removed.push(bundleID);
      });
    }
    if (removed.length) this.changed({ bundleIDs: removed, toolIDs: [] });
    return removed;
  }

  /** Why the reaper kept this deleted bundle's folder, or undefined. */
  keptAfterDelete(bundleID: string): { folder: string; reason: string } | undefined {
    return this.reapBlocked.get(bundleID);
  }

  /**
   * "Remove" for a folder that is not a working bundle: one whose bundle.json
   * is missing (an interrupted create), or a deleted bundle the reaper kept.
   * Removes only Toolbelt's own files; anything else makes it refuse, naming it.
   */
  async removeBundleFolder(bundleID: string): Promise<void> {
    this.refuseReadOnly(bundleID, 'remove');
    await this.underBundleLock(bundleID, async () => {
      const record = await readBundleRecord(this.options.layout, this.options.validator, bundleID);
      if (record?.kind === 'valid' && !record.bundle.softDeletedAt) {
        throw new ToolbeltError('conflict', `Bundle "${record.bundle.displayName}" is in use; delete it first.`);
      }
      if (record?.kind === 'invalid') {
        throw new ToolbeltError('conflict', `${record.file} is there but invalid (${record.reason}); fix it, or remove the folder yourself.`, { file: record.file });
      }
      const contents = await inspectBundleFolder(this.options.layout, bundleID, record !== null);
      if (!contents.exists) throw notFound(`There is no folder for bundle ${bundleID} in the data folder: nothing to remove.`);
      const kept = whyKept(contents);
      if (kept) throw new ToolbeltError('conflict', `This folder cannot be removed: ${kept}.`, { folder: contents.folder, foreign: contents.foreign });
      await removeOwnBundleFolder(contents);
    });
    this.reapBlocked.delete(bundleID);
    this.forgetBundle(bundleID);
    this.changed({ bundleIDs: [bundleID], toolIDs: [] });
  }

  // ── tools ────────────────────────────────────────────────────────────

  async putTool(bundleID: string, slugParam: string, versionParam: string, input: ToolInput): Promise<ValidTool> {
    const slug = nfc(slugParam);
    const version = nfc(versionParam);
    const bundle = await this.requireBundle(bundleID, { includeSoftDeleted: true });
    this.refuseReadOnly(bundleID, 'add tools to');
    this.requireWritableBundle(bundle);
    const mismatch = (['bundleID', 'slug', 'version'] as const).filter(
      (key) => input[key] !== undefined && nfc(input[key]) !== { bundleID, slug, version }[key],
    );
    if (mismatch.length) {
      throw new ToolbeltError('invalid_params', `${mismatch.join(', ')} in the body must match the URL.`, {
        issues: mismatch.map((key) => ({ path: `/${key}`, message: 'does not match the URL' })),
      });
    }
    const tool = this.newToolFile(this.checkedInput(input, 'tool'), { bundleID, slug, version });
    const record = await this.underBundleLock(bundleID, async () => {
      await this.refreshBundle(bundleID, { rereadKnown: false });
      const fresh = this.bundles.get(bundleID);
      if (!fresh || fresh.kind !== 'valid') throw notFound(`Bundle ${bundleID} no longer exists.`);
      this.requireWritableBundle(fresh);
      const taken = this.findInMemory(bundleID, slug, version);
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
    this.refuseReadOnly(bundleID, 'add tools to');
    const problems = bundle?.http ? checkBundleHttp(bundle.http) : [];
    if (problems.length > 0) throw new ToolbeltError('invalid_params', `The bundle's connection settings are invalid: ${describeIssues(problems)}`, { issues: problems });
    const files = tools.map(({ slug, version, input }) => this.newToolFile(this.checkedInput(input, 'tool'), { bundleID, slug: nfc(slug), version: nfc(version) }));
    const result = await this.underBundleLock(bundleID, async () => {
      const existing = await readBundleRecord(this.options.layout, this.options.validator, bundleID);
      if (bundle && existing) throw new ToolbeltError('conflict', `Bundle ${bundleID} already exists; import into it or choose a new bundle.`);
      if (!bundle) {
        const fresh = await this.requireLiveBundleOnDisk(bundleID);
        this.requireWritableBundle(fresh);
        await this.refreshBundle(bundleID, { rereadKnown: false });
        const taken = files.find((tool) => this.findInMemory(bundleID, tool.slug, tool.version));
        if (taken) throw new ToolbeltError('conflict', `A tool "${taken.slug}" version "${taken.version}" already exists in this bundle; nothing was imported.`);
        const written: ValidTool[] = [];
        for (const tool of files) written.push(await this.writeTool(tool));
        return { created: false, written };
      }
      const now = this.now();
      const bundleFile = bundleFileFrom(bundleID, bundle, { createdAt: now, modifiedAt: now });
      const { layout } = this.options;
      await writeStagedBundle(layout.root, layout.bundleDir(bundleID), [
        { relativePath: 'bundle.json', text: stringifyStable({ ...bundleFile }, BUNDLE_FILE_KEY_ORDER) },
        ...files.map((tool) => ({ relativePath: path.join('tools', `${tool.toolID}.json`), text: stringifyStable({ ...tool }, TOOL_FILE_KEY_ORDER) })),
      ]);
      return { created: true, written: [] as ValidTool[] };
    });
    await this.refreshBundle(bundleID);
    const written = result.created ? files.map((tool) => this.toolByID(tool.toolID)).filter((record): record is ValidTool => record?.kind === 'valid') : result.written;
    this.changed({ bundleIDs: [bundleID], toolIDs: written.map((record) => record.toolID) });
    return { created: result.created, written };
  }

  async setToolEnabled(bundleID: string, slug: string, version: string, isEnabled: boolean): Promise<ToolRecord> {
    const bundle = await this.requireBundle(bundleID, { includeSoftDeleted: true });
    this.requireWritableBundle(bundle, 'changed');
    const record = await this.requireTool(bundleID, slug, version);
    const readOnly = record.kind === 'valid' ? this.readOnlySources.get(record.source) : undefined;
    if (readOnly) {
      await readOnly.switches.set('tools', record.toolID, isEnabled);
      this.changed({ bundleIDs: [bundleID], toolIDs: [record.toolID] });
      return record;
    }
    const updated = await this.underBundleLock(bundleID, async () => {
      const fresh = await readToolRecord(this.options.layout, this.options.validator, bundleID, record.toolID);
      if (!fresh) throw notFound(`Tool "${slug}" version "${version}" no longer exists.`);
      if (fresh.kind !== 'valid') throw fileInvalid(fresh.file, fresh.reason);
      return this.writeTool({ ...fresh.tool, isEnabled });
    });
    this.changed({ bundleIDs: [bundleID], toolIDs: [updated.toolID] });
    return updated;
  }

  async deleteTool(bundleID: string, slug: string, version: string): Promise<void> {
    this.refuseReadOnly(bundleID, 'delete tools of');
    const record = await this.requireTool(bundleID, slug, version, { includeSoftDeleted: true });
    await this.underBundleLock(bundleID, async () => {
      await rm(this.options.layout.toolFile(bundleID, record.toolID), { force: true });
    });
    this.forgetTool(record.toolID);
    await this.usage.forget(record.toolID);
    this.changed({ bundleIDs: [bundleID], toolIDs: [record.toolID] });
  }

  /**
   * Every problem tools.put would report for this draft, without writing:
   * slug and version, the definition, and a taken <slug, version>.
   */
  async checkDraft(draft: unknown, address: { bundleID?: string; slug?: string; version?: string }): Promise<ValidationIssue[]> {
    const issues: ValidationIssue[] = [];
    if (address.slug !== undefined && !isSlug(nfc(address.slug))) {
      issues.push({ path: '/slug', message: SLUG_HINT });
    }
    if (address.version !== undefined && !isVersion(nfc(address.version))) {
      issues.push({ path: '/version', message: VERSION_HINT });
    }
    const checked = this.options.validator.toolInput(draft);
    if (!checked.ok) issues.push(...checked.issues);
    if (issues.length === 0 && address.bundleID && address.slug && address.version) {
      const taken = await this.findTool(address.bundleID, address.slug, address.version);
      if (taken) issues.push({ path: '/version', message: `"${address.slug}" version "${address.version}" already exists in this bundle; choose another version.` });
    }
    return issues;
  }

  /**
   * A draft as the record it would become, for trying it in the tester
   * before saving: checked like a put, never written.
   */
  async draftRecord(bundleID: string, draft: unknown): Promise<ValidTool> {
    await this.requireBundle(bundleID);
    const input = this.checkedInput(draft, 'draft');
    const tool = this.newToolFile({ ...input, isEnabled: true }, { bundleID, slug: input.slug ?? 'draft', version: input.version ?? 'draft' });
    return { kind: 'valid', toolID: tool.toolID, bundleID, tool, text: '', source: FILES_SOURCE };
  }

  /** The tool at <bundle, slug, version>, or `not_found`; hidden with its soft-deleted bundle. */
  async requireTool(
    bundleID: string,
    slug: string,
    version: string,
    options: { includeSoftDeleted?: boolean } = {},
  ): Promise<ToolRecord> {
    const bundle = await this.requireBundle(bundleID, options);
    const record = await this.findTool(bundle.bundleID, slug, version);
    if (!record) throw notFound(`There is no tool "${slug}" version "${version}" in bundle ${bundleID}.`);
    return record;
  }

  /** A live (not soft-deleted) bundle or `not_found`. Invalid bundle files are `file_invalid`. */
  async requireBundle(bundleID: string, options: { includeSoftDeleted?: boolean } = {}): Promise<ValidBundle> {
    let record = this.bundles.get(bundleID);
    if (!record) {
      await this.refreshBundle(bundleID);
      record = this.bundles.get(bundleID);
    }
    if (!record) throw notFound(`There is no bundle ${bundleID}.`);
    if (record.kind !== 'valid') throw fileInvalid(record.file, record.reason);
    if (record.bundle.softDeletedAt && !options.includeSoftDeleted) {
      throw notFound(`Bundle ${bundleID} was deleted. Put it again to restore it.`);
    }
    return record;
  }

  // ── disk ─────────────────────────────────────────────────────────────

  /**
   * Re-reads one bundle folder (bundle.json and its tool files) and reports
   * whether anything differed from memory. The watcher re-reads everything;
   * a write under the lock only needs files it has never seen (another
   * process's new tools), which keeps a put from reading the whole bundle.
   */
  async refreshBundle(bundleID: string, options: { rereadKnown: boolean } = { rereadKnown: true }): Promise<boolean> {
    if (this.isReadOnlyBundle(bundleID)) return false;
    for (let attempt = 1; ; attempt++) {
      const epoch = this.epochs.get(bundleID) ?? 0;
      const folder = await this.readBundleFolder(bundleID, options);
      // A write of this process changed the bundle while it was read (a tool deleted after its file was read):
      // applying what was read would bring back what the write replaced. Read again; after a few tries, apply.
      if ((this.epochs.get(bundleID) ?? 0) !== epoch && attempt < 4) continue;
      return this.applyBundleFolder(bundleID, folder);
    }
  }

  /** What the bundle's folder holds now; memory is not touched. */
  private async readBundleFolder(bundleID: string, options: { rereadKnown: boolean }) {
    const { layout, validator } = this.options;
    const [bundle, listing] = await Promise.all([readBundleRecord(layout, validator, bundleID), listToolFolder(layout.toolsDir(bundleID))]);
    const strays = listing.strays.map((stray) => strayToolRecord(layout, bundleID, stray));
    const toolIDs = new Set([...listing.toolIDs, ...strays.map((stray) => stray.toolID)]);
    const gone = !bundle && toolIDs.size === 0 && !(await isFolder(layout.bundleDir(bundleID)));
    const toRead = options.rereadKnown ? listing.toolIDs : listing.toolIDs.filter((toolID) => !this.tools.has(toolID));
    const records = new Map<string, ToolRecord | null>();
    await forEachLimited(toRead, 16, async (toolID) => {
      records.set(toolID, await readToolRecord(layout, validator, bundleID, toolID));
    });
    return { bundle, toolIDs, strays, gone, records };
  }

  /** Makes memory match a folder as read, at once (no await): nothing can change in between. */
  private applyBundleFolder(bundleID: string, folder: Awaited<ReturnType<ToolStore['readBundleFolder']>>): boolean {
    if (folder.gone) {
      if (!this.bundles.has(bundleID) && !this.toolsByBundle.has(bundleID)) return false;
      this.forgetBundle(bundleID);
      return true;
    }
    let changed = false;
    const bundleRecord = folder.bundle ?? missingBundleRecord(this.options.layout, bundleID);
    if (!sameRecord(this.bundles.get(bundleID), bundleRecord)) {
      this.bundles.set(bundleID, bundleRecord);
      this.touched(bundleID);
      changed = true;
    }
    for (const toolID of [...(this.toolsByBundle.get(bundleID) ?? [])]) {
      if (!folder.toolIDs.has(toolID)) {
        this.forgetTool(toolID);
        changed = true;
      }
    }
    for (const stray of folder.strays) {
      if (!sameRecord(this.tools.get(stray.toolID), stray)) {
        this.rememberTool(stray);
        changed = true;
      }
    }
    for (const [toolID, record] of folder.records) {
      if (!record) {
        if (this.tools.has(toolID)) changed = true;
        this.forgetTool(toolID);
      } else if (!sameRecord(this.tools.get(toolID), record)) {
        this.rememberTool(record);
        changed = true;
      }
    }
    if (changed) this.revisionCounter++;
    return changed;
  }

  /** Re-reads bundles another program changed, and tells listeners what differed. */
  async syncFromDisk(bundleIDs: Iterable<string>): Promise<StoreChange> {
    const changed: string[] = [];
    for (const bundleID of bundleIDs) {
      if (await this.refreshBundle(bundleID)) changed.push(bundleID);
    }
    if (changed.length) this.options.onChange({ bundleIDs: changed, toolIDs: [] }, 'disk');
    return { bundleIDs: changed, toolIDs: [] };
  }

  /** Re-reads the bundles folder: new bundle folders and vanished ones. */
  async refreshAll(): Promise<string[]> {
    const onDisk = new Set(await listBundleIDs(this.options.layout.bundlesDir));
    const known = [...this.bundles.keys(), ...this.toolsByBundle.keys()].filter((id) => !this.isReadOnlyBundle(id));
    const changed: string[] = [];
    for (const bundleID of new Set([...onDisk, ...known])) {
      if (await this.refreshBundle(bundleID)) changed.push(bundleID);
    }
    return changed;
  }

  async close(): Promise<void> {
    for (const unsubscribe of this.sourceSubscriptions.values()) unsubscribe();
    this.sourceSubscriptions.clear();
    await Promise.all([this.usage.flush(), this.validationCache.flush()]);
  }

  // ── read-only sources ────────────────────────────────────────────────

  /**
   * Adds a source of tools while the app runs (an MCP server, say): its
   * tools are listed, searched, switched and run like the files' from now on,
   * and follow the changes it reports.
   */
  async addSource(source: ReadOnlySource): Promise<void> {
    if (this.readOnlySources.has(source.id)) throw new ToolbeltError('conflict', `A source named ${source.id} is already there.`);
    this.readOnlySources.set(source.id, source);
    await source.switches.load();
    this.resyncSource(source);
    const unsubscribe = source.subscribe?.(() => this.resyncSource(source));
    if (unsubscribe) this.sourceSubscriptions.set(source.id, unsubscribe);
  }

  /** Takes a source's tools away (an MCP server removed); its switches file stays for next time. */
  removeSource(sourceID: string): void {
    this.sourceSubscriptions.get(sourceID)?.();
    this.sourceSubscriptions.delete(sourceID);
    const bundleIDs = this.forgetSource(sourceID);
    this.readOnlySources.delete(sourceID);
    if (bundleIDs.length) this.sourceChanged(bundleIDs);
  }

  private resyncSource(source: ReadOnlySource): void {
    const before = this.forgetSource(source.id);
    const after = this.loadSource(source);
    this.sourceChanged([...new Set([...before, ...after])]);
  }

  /** A source's records into memory; a bundle id another source already holds is left out and logged. */
  private loadSource(source: ReadOnlySource): string[] {
    const { bundles, tools } = source.load({ validator: this.options.validator, cache: this.validationCache });
    const taken = new Set(bundles.filter((bundle) => this.bundles.has(bundle.bundleID)).map((bundle) => bundle.bundleID));
    for (const bundleID of taken) this.options.log.warn('a source offers a bundle whose id is taken; it is left out', { source: source.id, bundleID });
    for (const bundle of bundles) if (!taken.has(bundle.bundleID)) this.bundles.set(bundle.bundleID, bundle);
    for (const tool of tools) if (!taken.has(tool.bundleID)) this.rememberTool(tool);
    return bundles.map((bundle) => bundle.bundleID).filter((bundleID) => !taken.has(bundleID));
  }

  private forgetSource(sourceID: string): string[] {
    const bundleIDs = [...this.bundles.values()].filter((record) => record.kind === 'valid' && record.source === sourceID).map((record) => record.bundleID);
    for (const bundleID of bundleIDs) this.forgetBundle(bundleID);
    return bundleIDs;
  }

  private sourceChanged(bundleIDs: string[]): void {
    this.revisionCounter++;
    this.options.onChange({ bundleIDs, toolIDs: [] }, 'disk');
  }

  // ── internals ────────────────────────────────────────────────────────

  private async loadEverything(): Promise<void> {
    this.validationCache.loadSync();
    for (const source of this.readOnlySources.values()) this.loadSource(source);
    await Promise.all([...[...this.readOnlySources.values()].map((source) => source.switches.load()), this.usage.load()]);
    const { layout, validator } = this.options;
    // Synchronous on purpose: see readJsonFileSync.
    for (const bundleID of listBundleIDsSync(layout.bundlesDir)) {
      if (this.isReadOnlyBundle(bundleID)) continue;
      this.bundles.set(bundleID, readBundleRecordSync(layout, validator, bundleID) ?? missingBundleRecord(layout, bundleID));
      const listing = listToolFolderSync(layout.toolsDir(bundleID));
      for (const toolID of listing.toolIDs) {
        const record = readToolRecordSync(layout, validator, bundleID, toolID, this.validationCache);
        if (record) this.rememberTool(record);
      }
      for (const stray of listing.strays) this.rememberTool(strayToolRecord(layout, bundleID, stray));
    }
    this.validationCache.saveSoon((error) => this.options.log.warn('could not save the validation cache', { error: String(error) }));
    this.revisionCounter++;
  }

  /** The deep checks of tools.put; their problems, with JSON pointers, as invalid_params. */
  private checkedInput(value: unknown, what: 'tool' | 'draft'): ToolInput {
    const checked = this.options.validator.toolInput(value);
    if (!checked.ok) {
      throw new ToolbeltError('invalid_params', `The ${what} is invalid: ${describeIssues(checked.issues)}`, { issues: checked.issues });
    }
    return checked.value;
  }

  /** A new tool.json from a checked definition: fresh id, timestamps now, defaults filled. */
  private newToolFile(input: ToolInput, address: { bundleID: string; slug: string; version: string }): ToolFile {
    // An agent is never offered to itself (agents call agents through another agent, three deep at most).
    const itself = input.type === 'agent' ? (input.impl as AgentImpl).tools.findIndex((tool) => tool.bundleID === address.bundleID && tool.slug === address.slug) : -1;
    if (itself !== -1) {
      throw new ToolbeltError('invalid_params', `${input.displayName} cannot be among its own tools: an agent is never offered to itself. Take it out of its tools.`, {
        issues: [{ path: `/impl/tools/${itself}`, message: 'is the agent itself' }],
      });
    }
    const now = this.now();
    return {
      schemaVersion: '1',
      toolID: uuidv7(),
      ...address,
      displayName: input.displayName,
      description: input.description ?? '',
      tags: input.tags ?? [],
      type: input.type,
      isEnabled: input.isEnabled ?? true,
      isBuiltIn: false,
      requiresApproval: input.requiresApproval,
      argSchema: input.argSchema,
      outputSchema: input.outputSchema,
      impl: input.impl,
      createdAt: now,
      modifiedAt: now,
    } as ToolFile;
  }

  private findInMemory(bundleID: string, slug: string, version: string): ToolRecord | undefined {
    for (const toolID of this.toolsByBundle.get(bundleID) ?? []) {
      const record = this.tools.get(toolID)!;
      const identity = record.kind === 'valid' ? record.tool : record.salvage;
      if (identity.slug === slug && identity.version === version) return record;
    }
    return undefined;
  }

  private touched(bundleID: string): void {
    this.epochs.set(bundleID, (this.epochs.get(bundleID) ?? 0) + 1);
  }

  private rememberTool(record: ToolRecord): void {
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

  private forgetTool(toolID: string): void {
    const previous = this.tools.get(toolID);
    if (!previous) return;
    this.tools.delete(toolID);
    this.toolsByBundle.get(previous.bundleID)?.delete(toolID);
    this.touched(previous.bundleID);
  }

  private forgetBundle(bundleID: string): void {
    for (const toolID of this.toolsByBundle.get(bundleID) ?? []) this.tools.delete(toolID);
    this.toolsByBundle.delete(bundleID);
    this.bundles.delete(bundleID);
    this.touched(bundleID);
  }

  private async writeBundle(bundle: BundleFile): Promise<ValidBundle> {
    const text = stringifyStable({ ...bundle }, BUNDLE_FILE_KEY_ORDER);
    await writeFileAtomically(this.options.layout.bundleFile(bundle.bundleID), text, { within: this.options.layout.root });
    const record: ValidBundle = { kind: 'valid', bundleID: bundle.bundleID, bundle, text, source: FILES_SOURCE };
    this.bundles.set(bundle.bundleID, record);
    this.touched(bundle.bundleID);
    return record;
  }

  private async writeTool(tool: ToolFile): Promise<ValidTool> {
    const text = stringifyStable({ ...tool }, TOOL_FILE_KEY_ORDER);
    const file = this.options.layout.toolFile(tool.bundleID, tool.toolID);
    // A bundle folder made by hand may have no tools/ yet.
    await writeFileAtomicallyMakingFolders(file, text, { within: this.options.layout.root });
    const record: ValidTool = { kind: 'valid', toolID: tool.toolID, bundleID: tool.bundleID, tool, text, source: FILES_SOURCE };
    this.rememberTool(record);
    return record;
  }

  private async requireLiveBundleOnDisk(bundleID: string): Promise<ValidBundle> {
    const fresh = await readBundleRecord(this.options.layout, this.options.validator, bundleID);
    if (!fresh) throw notFound(`There is no bundle ${bundleID}.`);
    if (fresh.kind !== 'valid') throw fileInvalid(fresh.file, fresh.reason);
    if (fresh.bundle.softDeletedAt) throw notFound(`Bundle ${bundleID} was deleted. Put it again to restore it.`);
    this.bundles.set(bundleID, fresh);
    this.touched(bundleID);
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

  /** Edits of a read-only source's bundle are refused with that source's code and sentence. */
  private refuseReadOnly(bundleID: string, verb: string): void {
    const record = this.bundles.get(bundleID);
    const source = record?.kind === 'valid' ? this.readOnlySources.get(record.source) : undefined;
    if (source) throw new ToolbeltError(source.refusal.code, source.refusal.message(verb));
  }

  private isReadOnlyBundle(bundleID: string): boolean {
    const record = this.bundles.get(bundleID);
    return record !== undefined && !this.isWritable(record);
  }

  private underBundleLock<T>(bundleID: string, work: () => Promise<T>): Promise<T> {
    return withFileLock(this.options.layout.lockTarget(`bundle-${bundleID}`), work);
  }

  private now(): string {
    return this.options.clock.now().toISOString();
  }

  private changed(change: StoreChange): void {
    this.revisionCounter++;
    this.options.onChange(change, 'api');
  }
}

function missingBundleRecord(layout: StoreLayout, bundleID: string): BundleRecord {
  const file = layout.bundleFile(bundleID);
  return { kind: 'invalid', bundleID, file, reason: 'bundle.json is missing: a create was interrupted, or the folder was made by hand', salvage: {}, missing: true };
}

async function isFolder(folder: string): Promise<boolean> {
  return (await stat(folder).catch(() => null))?.isDirectory() ?? false;
}

function sameRecord(a: BundleRecord | ToolRecord | undefined, b: BundleRecord | ToolRecord): boolean {
  if (!a || a.kind !== b.kind) return false;
  return a.kind === 'valid' ? a.text === b.text : a.text === b.text && a.reason === (b as { reason: string }).reason;
}

function notFound(message: string): ToolbeltError {
  return new ToolbeltError('not_found', message);
}

function fileInvalid(file: string, reason: string): ToolbeltError {
  return new ToolbeltError('file_invalid', `${file} is invalid (${reason}). Fix the file, then try again.`, { file, reason });
}



import { stat } from 'node:fs/promises';
import type { Logger } from '../log.js';
import type { DocumentValidator } from './document-validation.js';
import type { StoreLayout } from './layout.js';
import type { RecordIndex } from './record-index.js';
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
} from './records.js';
import type { SourceRegistry } from './source-registry.js';
import type { ValidationCache } from './validation-cache.js';

export interface FolderSyncDeps {
  layout: StoreLayout;
  validator: DocumentValidator;
  cache: ValidationCache;
  log: Logger;
}

/**
 * The data folder's files into the index: all of them at start, one bundle
 * folder when a write or the watcher asks, and the bundles folder when
 * folders come and go. Other sources' bundles are never read from disk.
 */
export class FolderSync {
  constructor(
    private readonly deps: FolderSyncDeps,
    private readonly index: RecordIndex,
    private readonly sources: SourceRegistry,
  ) {}

  /** Every bundle folder, read synchronously at start (see readJsonFileSync). */
  loadAll(): void {
    const { layout, validator, cache } = this.deps;
    for (const bundleID of listBundleIDsSync(layout.bundlesDir)) {
      if (this.sources.isReadOnlyBundle(bundleID)) continue;
      this.index.bundles.set(bundleID, readBundleRecordSync(layout, validator, bundleID) ?? missingBundleRecord(layout, bundleID));
      const listing = listToolFolderSync(layout.toolsDir(bundleID));
      for (const toolID of listing.toolIDs) {
        const record = readToolRecordSync(layout, validator, bundleID, toolID, cache);
        if (record) this.index.rememberTool(record);
      }
      for (const stray of listing.strays) this.index.rememberTool(strayToolRecord(layout, bundleID, stray));
    }
  }

  /**
   * Re-reads one bundle folder (bundle.json and its tool files) and reports
   * whether anything differed from memory. The watcher re-reads everything;
   * a write under the lock only needs files it has never seen (another
   * process's new tools), which keeps a put from reading the whole bundle.
   */
  async refreshBundle(bundleID: string, options: { rereadKnown: boolean } = { rereadKnown: true }): Promise<boolean> {
    if (this.sources.isReadOnlyBundle(bundleID)) return false;
    for (let attempt = 1; ; attempt++) {
      const epoch = this.index.epochOf(bundleID);
      const folder = await this.readBundleFolder(bundleID, options);
      // A write of this process changed the bundle while it was read (a tool deleted after its file was read):
      // applying what was read would bring back what the write replaced. Read again; after a few tries, apply.
      if (this.index.epochOf(bundleID) !== epoch && attempt < 4) continue;
      return this.applyBundleFolder(bundleID, folder);
    }
  }

  /** Re-reads the bundles folder: new bundle folders and vanished ones; the bundles that differed. */
  async refreshAll(): Promise<string[]> {
    const onDisk = new Set(await listBundleIDs(this.deps.layout.bundlesDir));
    const known = [...this.index.bundles.keys(), ...this.index.toolsByBundle.keys()].filter((id) => !this.sources.isReadOnlyBundle(id));
    const changed: string[] = [];
    for (const bundleID of new Set([...onDisk, ...known])) {
      if (await this.refreshBundle(bundleID)) changed.push(bundleID);
    }
    return changed;
  }

  /** What the bundle's folder holds now; memory is not touched. */
  private async readBundleFolder(bundleID: string, options: { rereadKnown: boolean }) {
    const { layout, validator, cache } = this.deps;
    const [bundle, listing] = await Promise.all([readBundleRecord(layout, validator, bundleID, this.index.bundles.get(bundleID)), listToolFolder(layout.toolsDir(bundleID))]);
    const strays = listing.strays.map((stray) => strayToolRecord(layout, bundleID, stray));
    const toolIDs = new Set([...listing.toolIDs, ...strays.map((stray) => stray.toolID)]);
    const gone = !bundle && toolIDs.size === 0 && !(await isFolder(layout.bundleDir(bundleID)));
    const toRead = options.rereadKnown ? listing.toolIDs : listing.toolIDs.filter((toolID) => !this.index.tools.has(toolID));
    const records = new Map<string, ToolRecord | null>();
    await forEachLimited(toRead, 16, async (toolID) => {
      records.set(toolID, await readToolRecord(layout, validator, bundleID, toolID, cache, this.index.tools.get(toolID)));
    });
    return { bundle, toolIDs, strays, gone, records };
  }

  /** Makes memory match a folder as read, at once (no await): nothing can change in between. */
  private applyBundleFolder(bundleID: string, folder: Awaited<ReturnType<FolderSync['readBundleFolder']>>): boolean {
    const { index } = this;
    if (folder.gone) {
      if (!index.bundles.has(bundleID) && !index.toolsByBundle.has(bundleID)) return false;
      index.forgetBundle(bundleID);
      return true;
    }
    let changed = false;
    const bundleRecord = folder.bundle ?? missingBundleRecord(this.deps.layout, bundleID);
    if (!sameRecord(index.bundles.get(bundleID), bundleRecord)) {
      index.setBundle(bundleRecord);
      changed = true;
    }
    for (const toolID of index.toolIDsOf(bundleID)) {
      if (!folder.toolIDs.has(toolID)) {
        index.forgetTool(toolID);
        changed = true;
      }
    }
    for (const stray of folder.strays) {
      if (!sameRecord(index.tools.get(stray.toolID), stray)) {
        index.rememberTool(stray);
        changed = true;
      }
    }
    for (const [toolID, record] of folder.records) {
      if (!record) {
        if (index.tools.has(toolID)) changed = true;
        index.forgetTool(toolID);
      } else if (!sameRecord(index.tools.get(toolID), record)) {
        index.rememberTool(record);
        changed = true;
      }
    }
    if (changed) index.revision++;
    return changed;
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
  if (a.kind === 'invalid') return a.text === (b as { text?: string }).text && a.reason === (b as { reason: string }).reason;
  return 'digest' in a ? a.digest === (b as { digest: string }).digest : a.text === (b as { text: string }).text;
}

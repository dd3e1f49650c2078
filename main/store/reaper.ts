import { ToolbeltError } from '../../shared/errors.js';
import type { Clock } from '../common/clock.js';
import { inspectBundleFolder, removeOwnBundleFolder, whyKept } from './bundle-folder.js';
import type { DocumentValidator } from './document-validation.js';
import type { StoreLayout } from './layout.js';
import type { RecordIndex } from './record-index.js';
import { FILES_SOURCE, readBundleRecord } from './records.js';
import type { SourceRegistry } from './source-registry.js';

export const SOFT_DELETE_RETENTION_MS = 2 * 24 * 60 * 60 * 1000;

export interface ReaperDeps {
  layout: StoreLayout;
  validator: DocumentValidator;
  clock: Clock;
  /** Runs `work` holding the bundle's cross-process lock. */
  underBundleLock: <T>(bundleID: string, work: () => Promise<T>) => Promise<T>;
  /** Bundles whose records changed (they are gone, or now say why they stay). */
  changed: (bundleIDs: string[]) => void;
}

/**
 * Deleted bundles' folders go, two days after the delete, and only when
 * they hold nothing but Toolbelt's own files; "Remove" clears a folder that
 * is not a working bundle on request. Anything else in a folder keeps it,
 * with the reason listed for the person.
 */
export class Reaper {
  /** Deleted bundles the reaper had to keep, with the reason: listed so a person can act. */
  private readonly blocked = new Map<string, { folder: string; reason: string }>();

  constructor(
    private readonly deps: ReaperDeps,
    private readonly index: RecordIndex,
    private readonly sources: SourceRegistry,
  ) {}

  /**
   * Removes the folders of bundles soft-deleted more than two days ago that
   * have no tools left. Removes only what Toolbelt wrote: a folder that
   * still holds a tool file, valid or not, or anything else stays; one with
   * files Toolbelt did not write is listed with the reason.
   */
  async reap(): Promise<string[]> {
    const removed: string[] = [];
    const cutoff = this.deps.clock.now().getTime() - SOFT_DELETE_RETENTION_MS;
    for (const record of [...this.index.bundles.values()]) {
      if (record.kind !== 'valid' || record.source !== FILES_SOURCE || !record.bundle.softDeletedAt) continue;
      if (Date.parse(record.bundle.softDeletedAt) > cutoff) continue;
      const bundleID = record.bundleID;
      await this.deps.underBundleLock(bundleID, async () => {
        const fresh = await readBundleRecord(this.deps.layout, this.deps.validator, bundleID);
        if (fresh?.kind !== 'valid' || !fresh.bundle.softDeletedAt) return;
        if (Date.parse(fresh.bundle.softDeletedAt) > cutoff) return;
        const contents = await inspectBundleFolder(this.deps.layout, bundleID, true);
        const kept = whyKept(contents);
        if (kept) {
          if (contents.toolFiles === 0 && this.blocked.get(bundleID)?.reason !== kept) {
            this.blocked.set(bundleID, { folder: contents.folder, reason: kept });
            this.deps.changed([bundleID]);
          }
          return;
        }
        await removeOwnBundleFolder(contents);
        this.blocked.delete(bundleID);
        this.index.forgetBundle(bundleID);
        removed.push(bundleID);
      });
    }
    if (removed.length) this.deps.changed(removed);
    return removed;
  }

  /** Why the reaper kept this deleted bundle's folder, or undefined. */
  keptAfterDelete(bundleID: string): { folder: string; reason: string } | undefined {
    return this.blocked.get(bundleID);
  }

  /**
   * "Remove" for a folder that is not a working bundle: one whose bundle.json
   * is missing (an interrupted create), or a deleted bundle the reaper kept.
   * Removes only Toolbelt's own files; anything else makes it refuse, naming it.
   */
  async removeBundleFolder(bundleID: string): Promise<void> {
    this.sources.refuseReadOnly(bundleID, 'remove');
    await this.deps.underBundleLock(bundleID, async () => {
      const record = await readBundleRecord(this.deps.layout, this.deps.validator, bundleID);
      if (record?.kind === 'valid' && !record.bundle.softDeletedAt) {
        throw new ToolbeltError('conflict', `Bundle "${record.bundle.displayName}" is in use; delete it first.`);
      }
      if (record?.kind === 'invalid') {
        throw new ToolbeltError('conflict', `${record.file} is there but invalid (${record.reason}); fix it, or remove the folder yourself.`, { file: record.file });
      }
      const contents = await inspectBundleFolder(this.deps.layout, bundleID, record !== null);
      if (!contents.exists) throw new ToolbeltError('not_found', `There is no folder for bundle ${bundleID} in the data folder: nothing to remove.`);
      const kept = whyKept(contents);
      if (kept) throw new ToolbeltError('conflict', `This folder cannot be removed: ${kept}.`, { folder: contents.folder, foreign: contents.foreign });
      await removeOwnBundleFolder(contents);
    });
    this.blocked.delete(bundleID);
    this.index.forgetBundle(bundleID);
    this.deps.changed([bundleID]);
  }
}

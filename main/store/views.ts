import type { BundleEntry } from '../../shared/schemas/bundle.js';
import type { ToolEntry, ToolView } from '../../shared/schemas/tool.js';
import type { BundleRecord, ToolRecord } from './records.js';
import { FILES_SOURCE } from './records.js';
import type { ToolStore } from './tool-store.js';
import { hasHooks, hooksDigest, hooksSwitchedOn } from './bundle-hooks.js';

/** What the lists say about running a tool; the tool resolver answers both. */
export interface ToolReadiness {
  /** Why it cannot run whatever its switches say, or null. */
  unavailableReason(record: ToolRecord): string | null;
  /** Why it cannot run now, switches included, or null. */
  blockedReason(record: ToolRecord): string | null;
}

export function bundleEntry(store: ToolStore, record: BundleRecord): BundleEntry {
  const kept = store.reaper.keptAfterDelete(record.bundleID);
  if (kept && record.kind === 'valid') {
    return {
      status: 'invalid',
      bundleID: record.bundleID,
      file: kept.folder,
      invalidReason: `Deleted, but its folder was kept: ${kept.reason}.`,
      slug: record.bundle.slug,
      displayName: record.bundle.displayName,
      removable: true,
    };
  }
  if (record.kind === 'invalid') {
    return {
      status: 'invalid',
      bundleID: record.bundleID,
      file: record.file,
      invalidReason: record.reason,
      ...(record.missing ? { removable: true } : {}),
      ...(record.salvage.slug !== undefined ? { slug: record.salvage.slug } : {}),
      ...(record.salvage.displayName !== undefined ? { displayName: record.salvage.displayName } : {}),
    };
  }
  const { hooksSwitchedOn: _switchedOn, ...bundle } = record.bundle;
  const hooks = hasHooks(bundle.hooks) ? { hooksDigest: hooksDigest(bundle.hooks), hooksOn: hooksSwitchedOn(record.bundle) !== undefined } : {};
  return {
    ...bundle,
    ...hooks,
    isEnabled: store.isBundleEnabled(record),
    status: 'valid',
    toolCount: store.toolCount(record.bundleID),
    readOnly: !store.isWritable(record),
  };
}

export function toolEntry(store: ToolStore, record: ToolRecord, readiness: ToolReadiness): ToolEntry {
  const reason = readiness.unavailableReason(record);
  if (record.kind === 'invalid') {
    return {
      status: 'invalid',
      toolID: record.toolID,
      bundleID: record.bundleID,
      file: record.file,
      invalidReason: record.reason,
      ...record.salvage,
      available: false,
      unavailableReason: reason!,
    };
  }
  const versions = store.versionsOf(record.bundleID, record.tool.slug);
  const view = {
    ...record.tool,
    ...(versions.length > 1 ? { versions: versions.map((version) => ({ version: version.tool.version, isEnabled: store.isToolEnabled(version) })) } : {}),
    isEnabled: store.isToolEnabled(record),
    status: 'valid',
    readOnly: record.source !== FILES_SOURCE,
    usage: store.usage.get(record.toolID),
    available: reason === null,
    ...(reason === null ? {} : { unavailableReason: reason }),
    ...withBlockedReason(readiness.blockedReason(record)),
  } as ToolView;
  return view;
}

/**
 * Lists and search show a tool when its bundle is live (not soft-deleted)
 * and, unless disabled ones are asked for, when it and its bundle are
 * enabled and valid. Invalid files count as not enabled.
 */
export function isToolListed(store: ToolStore, record: ToolRecord, includeDisabled: boolean): boolean {
  const bundle = store.bundle(record.bundleID);
  if (bundle?.kind === 'valid' && bundle.bundle.softDeletedAt) return false;
  if (includeDisabled) return true;
  return !!bundle && store.isBundleEnabled(bundle) && store.isToolEnabled(record);
}

export function isBundleListed(store: ToolStore, record: BundleRecord, includeDisabled: boolean): boolean {
  if (record.kind === 'valid' && record.bundle.softDeletedAt) return includeDisabled && store.reaper.keptAfterDelete(record.bundleID) !== undefined;
  return includeDisabled || store.isBundleEnabled(record);
}

function withBlockedReason(reason: string | null): { blockedReason?: string } {
  return reason === null ? {} : { blockedReason: reason };
}

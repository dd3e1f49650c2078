import { ToolbeltError } from '../../shared/errors.js';
import type { ToolFile } from '../../shared/schemas/tool.js';
import type { BundleRecord, ToolRecord, ValidTool } from '../store/records.js';
import type { ToolStore } from '../store/tool-store.js';
import { latestOfEach } from '../../shared/tools/tool-versions.js';

export interface ToolRef {
  bundleID: string;
  slug: string;
  version: string;
}

export type ValidBundle = Extract<BundleRecord, { kind: 'valid' }>;

/**
 * Can this tool run now, and if not, why: the one answer the invoker, the
 * chat (its tool list and the palette's runs), the lists and the tester
 * share, so they never disagree or word it differently.
 * - `code`: the stable error code a refusal carries;
 * - `why`: a clause for lists ("it is switched off");
 * - `message`: the sentence a person reads, with the next step.
 */
export type Readiness =
  | { ok: true; record: ValidTool; bundle: ValidBundle }
  | { ok: false; code: 'not_found' | 'tool_disabled' | 'tool_unavailable'; why: string; message: string };

/** Why a runner cannot run this tool whatever its switches say (a local function missing from this build), or null. */
export type RunnerAvailability = (tool: ToolFile) => string | null;

export interface ToolResolver {
  /** Readiness of a tool found (or not) by its address. */
  resolve(ref: ToolRef, options?: { ignoreSwitches?: boolean }): Promise<Readiness>;
  /** Readiness of a record already in hand. */
  check(record: ToolRecord | undefined, options?: { ignoreSwitches?: boolean }): Readiness;
  /** Why a tool cannot run whatever its switches say, as a sentence; null when it can (lists show this). */
  unavailableReason: (record: ToolRecord) => string | null;
  /** Why a tool cannot run now, switches included, as the sentence a refusal would carry; null when it can. */
  blockedReason: (record: ToolRecord) => string | null;
  /**
   * What a chat that reaches a whole bundle is offered: the latest version
   * of each of its tools that can run now (switched-off and broken ones
   * left out), or why the bundle offers none.
   */
  bundleTools(bundleID: string): { ok: true; bundle: ValidBundle; tools: ValidTool[] } | { ok: false; why: string };
}

/** The tool if it can run; otherwise the refusal, as the ToolbeltError its code names. */
export function requireReady(readiness: Readiness): Extract<Readiness, { ok: true }> {
  if (!readiness.ok) throw new ToolbeltError(readiness.code, readiness.message);
  return readiness;
}

export function createToolResolver(deps: { store: ToolStore; availability: RunnerAvailability }): ToolResolver {
  const { store } = deps;
  const refusal = (code: Extract<Readiness, { ok: false }>['code'], why: string, message: string): Readiness => ({ ok: false, code, why, message });

  /** The parts of readiness that switches do not change: the files, and whether a runner can take the tool. */
  function unavailable(record: ToolRecord): { why: string; sentence: string } | null {
    if (record.kind === 'invalid') return { why: `its file is invalid: ${record.reason}`, sentence: `Its file is invalid: ${record.reason}` };
    const bundle = store.bundle(record.bundleID);
    if (!bundle) return { why: 'its bundle folder has no bundle.json', sentence: 'Its bundle folder has no bundle.json.' };
    if (bundle.kind === 'invalid') return { why: `its bundle's file is invalid: ${bundle.reason}`, sentence: `Its bundle's file is invalid: ${bundle.reason}` };
    const runner = deps.availability(record.tool);
    return runner ? { why: runner, sentence: `${runner.charAt(0).toUpperCase()}${runner.slice(1)}.` } : null;
  }

  function check(record: ToolRecord | undefined, options: { ignoreSwitches?: boolean } = {}): Readiness {
    if (!record) return refusal('not_found', 'it no longer exists', 'This tool no longer exists; it may have been deleted.');
    const name = record.kind === 'valid' ? record.tool.displayName : (record.salvage.displayName ?? 'This tool');
    if (record.kind === 'invalid') {
      return refusal('tool_unavailable', `its file is invalid: ${record.reason}`, `${name} cannot run: its file is invalid (${record.reason}). Fix the file, then try again.`);
    }
    const bundle = store.bundle(record.bundleID);
    // A deleted bundle's tools are gone for every caller, though the files wait for the reaper.
    if (bundle?.kind === 'valid' && bundle.bundle.softDeletedAt) return refusal('not_found', 'it was deleted with its bundle', `${name} was deleted with its bundle.`);
    if (!options.ignoreSwitches) {
      if (!store.isToolEnabled(record)) return refusal('tool_disabled', 'it is switched off', `${name} is switched off. Switch it on to run it.`);
      if (bundle && !store.isBundleEnabled(bundle)) {
        return refusal('tool_disabled', 'its bundle is switched off', `${name} is switched off with its bundle. Switch the bundle on to run it.`);
      }
    }
    const problem = unavailable(record);
    if (problem || bundle?.kind !== 'valid') {
      const why = problem?.why ?? 'it cannot run';
      return refusal('tool_unavailable', why, `${name} cannot run: ${why}.`);
    }
    return { ok: true, record, bundle };
  }

  return {
    check,
    async resolve(ref, options) {
      return check(await store.findTool(ref.bundleID, ref.slug, ref.version), options);
    },
    unavailableReason: (record) => unavailable(record)?.sentence ?? null,
    blockedReason: (record) => {
      const readiness = check(record);
      return readiness.ok ? null : readiness.message;
    },
    bundleTools(bundleID) {
      const bundle = store.bundle(bundleID);
      if (!bundle) return { ok: false, why: 'it no longer exists' };
      if (bundle.kind === 'invalid') return { ok: false, why: `its bundle.json is invalid: ${bundle.reason}` };
      if (bundle.bundle.softDeletedAt) return { ok: false, why: 'it was deleted' };
      if (!store.isBundleEnabled(bundle)) return { ok: false, why: 'it is switched off' };
      const ready = store.validToolsOf(bundleID).filter((record) => check(record).ok);
      return { ok: true, bundle, tools: latestOfEach(ready.map((record) => ({ slug: record.tool.slug, version: record.tool.version, record }))).map((entry) => entry.record) };
    },
  };
}

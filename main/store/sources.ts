import { ToolbeltError } from '../../shared/errors.js';
import { describeIssues } from '../common/validation.js';
import type { ToolFile } from '../../shared/schemas/tool.js';
import type { DocumentValidator } from './document-validation.js';
import type { ValidationCache } from './validation-cache.js';
import { withFileLock } from '../common/file-lock.js';
import { readJsonFile, stringifyStable, writeFileAtomically } from '../common/json-files.js';
import type { StoreLayout } from './layout.js';
import { BUILTINS_SOURCE, type BundleRecord, type ToolRecord } from './records.js';


/** The source of the flat files in the data folder: the only writable one. */

/**
 * Tools that come from somewhere Toolbelt does not write: the built-in
 * bundles shipped with the app, and (next) each MCP server. The store lists,
 * searches, switches and runs their tools like its own files; edits are
 * refused with the source's code. Only the on/off switches are the person's,
 * kept in a small file in the data folder.
 */
export interface ReadOnlySource {
  /** Stable across restarts: records carry it as their `source`. */
  readonly id: string;
  /** The code and sentence an edit is refused with. */
  readonly refusal: { code: 'builtin_immutable' | 'source_readonly'; message: (verb: string) => string };
  readonly switches: SwitchOverrides;
  /** Its bundles and tools as they are now: at start, and again each time it reports a change. */
  load(checks: { validator: DocumentValidator; cache: ValidationCache }): { bundles: BundleRecord[]; tools: ToolRecord[] };
  /** Tools that appear and vanish while the app runs (an MCP server's list) are reported here. */
  subscribe?(onChange: () => void): () => void;
}

/** A bundle shipped with the app: its documents as builtins/ holds them (core.ts hands them over). */
export interface ShippedBundle {
  /** Folder under builtins/, shown where a file path would be. */
  folder: string;
  bundle: unknown;
  tools: { file: string; document: unknown }[];
}

/** The built-in bundles, from builtins/ inside the app. */
export function builtinSource(layout: StoreLayout, shipped: readonly ShippedBundle[]): ReadOnlySource {
  return {
    id: BUILTINS_SOURCE,
    refusal: {
      code: 'builtin_immutable',
      message: (verb) => `Built-in bundles are read-only: you cannot ${verb} them. Only switching them on or off is allowed.`,
    },
    switches: new SwitchOverrides(layout, layout.builtinOverridesFile, 'builtins'),
    load: ({ validator, cache }) => loadShippedRecords(shipped, validator, cache),
  };
}

/**
 * Built-in bundles come from builtins/ inside the app and are validated with
 * the user's rules. A broken one is a bug in Toolbelt, so it stops the start
 * with a clear message (a test keeps that from shipping).
 */
function loadShippedRecords(shippedBundles: readonly ShippedBundle[], validator: DocumentValidator, cache: ValidationCache): { bundles: BundleRecord[]; tools: ToolRecord[] } {
  const bundles: BundleRecord[] = [];
  const tools: ToolRecord[] = [];
  for (const shipped of shippedBundles) {
    const bundle = validator.bundleFile(shipped.bundle);
    if (!bundle.ok) throw new Error(`built-in bundle ${shipped.folder} is invalid: ${describeIssues(bundle.issues)}`);
    const bundleID = bundle.value.bundleID;
    bundles.push({ kind: 'valid', bundleID, bundle: bundle.value, text: '', source: BUILTINS_SOURCE });
    for (const { file, document } of shipped.tools) {
      const text = JSON.stringify(document);
      const toolID = (document as { toolID: string }).toolID;
      const verdict = cache.check(toolID, text);
      const tool = verdict.known ? { ok: true as const, value: document as ToolFile } : validator.toolFile(document, true);
      if (!tool.ok) throw new Error(`built-in tool ${shipped.folder}/${file} is invalid: ${describeIssues(tool.issues)}`);
      if (tool.value.bundleID !== bundleID) throw new Error(`built-in tool ${shipped.folder}/${file} names another bundle`);
      cache.rememberValid(toolID, verdict.digest);
      tools.push({ kind: 'valid', toolID: tool.value.toolID, bundleID, tool: tool.value, digest: verdict.digest, source: BUILTINS_SOURCE });
    }
  }
  return { bundles, tools };
}

interface OverridesFile {
  bundles: Record<string, boolean>;
  tools: Record<string, boolean>;
}

/**
 * The only thing a person can change about a read-only source's tools:
 * whether they are on. Kept in a file of the data folder (builtins.json for
 * the built-ins); the source itself is never written.
 */
export class SwitchOverrides {
  private overrides: OverridesFile = { bundles: {}, tools: {} };
  private problem: string | null = null;

  constructor(
    private readonly layout: StoreLayout,
    private readonly file: string,
    private readonly lockName: string,
  ) {}

  async load(): Promise<void> {
    const read = await readJsonFile(this.file);
    this.problem = null;
    if (!read.ok) {
      this.overrides = { bundles: {}, tools: {} };
      if (!read.missing) this.problem = read.reason;
      return;
    }
    const value = read.value as Partial<OverridesFile> | null;
    if (!value || typeof value !== 'object' || !isFlagMap(value.bundles ?? {}) || !isFlagMap(value.tools ?? {})) {
      this.problem = 'expected { "bundles": { id: true|false }, "tools": { id: true|false } }';
      return;
    }
    this.overrides = { bundles: { ...value.bundles }, tools: { ...value.tools } };
  }

  isEnabled(kind: 'bundles' | 'tools', id: string, shipped: boolean): boolean {
    return this.overrides[kind][id] ?? shipped;
  }

  async set(kind: 'bundles' | 'tools', id: string, isEnabled: boolean): Promise<void> {
    await withFileLock(this.layout.lockTarget(this.lockName), async () => {
      await this.load();
      if (this.problem) {
        throw new ToolbeltError(
          'file_invalid',
          `${this.file} is invalid (${this.problem}). Fix or remove it, then try again.`,
        );
      }
      const next: OverridesFile = { bundles: { ...this.overrides.bundles }, tools: { ...this.overrides.tools } };
      next[kind][id] = isEnabled;
      await writeFileAtomically(this.file, stringifyStable({ ...next }, ['bundles', 'tools']), { within: this.layout.root });
      this.overrides = next;
    });
  }
}

function isFlagMap(value: unknown): value is Record<string, boolean> {
  return !!value && typeof value === 'object' && Object.values(value).every((flag) => typeof flag === 'boolean');
}

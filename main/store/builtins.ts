import { SHIPPED_BUNDLES } from '../../builtins/index.js';
import { ToolbeltError } from '../../shared/errors.js';
import { describeIssues } from '../common/validation.js';
import type { ToolFile } from '../../shared/schemas/tool.js';
import type { DocumentValidator } from './document-validation.js';
import type { ValidationCache } from './validation-cache.js';
import { withFileLock } from '../common/file-lock.js';
import { readJsonFile, stringifyStable, writeFileAtomically } from '../common/json-files.js';
import type { StoreLayout } from './layout.js';
import type { BundleRecord, ToolRecord } from './records.js';

/**
 * Built-in bundles come from builtins/ inside the app and are validated with
 * the user's rules. A broken one is a bug in Toolbelt, so it stops the start
 * with a clear message (a test keeps that from shipping).
 */
export function loadShippedRecords(validator: DocumentValidator, cache: ValidationCache): { bundles: BundleRecord[]; tools: ToolRecord[] } {
  const bundles: BundleRecord[] = [];
  const tools: ToolRecord[] = [];
  for (const shipped of SHIPPED_BUNDLES) {
    const bundle = validator.bundleFile(shipped.bundle);
    if (!bundle.ok) throw new Error(`built-in bundle ${shipped.folder} is invalid: ${describeIssues(bundle.issues)}`);
    const bundleID = bundle.value.bundleID;
    bundles.push({ kind: 'valid', bundleID, bundle: bundle.value, text: '', builtIn: true });
    for (const { file, document } of shipped.tools) {
      const text = JSON.stringify(document);
      const toolID = (document as { toolID: string }).toolID;
      const verdict = cache.check(toolID, text);
      const tool = verdict.known ? { ok: true as const, value: document as ToolFile } : validator.toolFile(document, true);
      if (!tool.ok) throw new Error(`built-in tool ${shipped.folder}/${file} is invalid: ${describeIssues(tool.issues)}`);
      if (tool.value.bundleID !== bundleID) throw new Error(`built-in tool ${shipped.folder}/${file} names another bundle`);
      cache.rememberValid(toolID, verdict.digest);
      tools.push({ kind: 'valid', toolID: tool.value.toolID, bundleID, tool: tool.value, text: '', builtIn: true });
    }
  }
  return { bundles, tools };
}

interface OverridesFile {
  bundles: Record<string, boolean>;
  tools: Record<string, boolean>;
}

/**
 * The only thing a person can change about a built-in: whether it is on.
 * Kept in <dataDir>/builtins.json; the shipped files are never written.
 */
export class BuiltinOverrides {
  private overrides: OverridesFile = { bundles: {}, tools: {} };
  private problem: string | null = null;

  constructor(private readonly layout: StoreLayout) {}

  async load(): Promise<void> {
    const read = await readJsonFile(this.layout.builtinOverridesFile);
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
    await withFileLock(this.layout.lockTarget('builtins'), async () => {
      await this.load();
      if (this.problem) {
        throw new ToolbeltError(
          'file_invalid',
          `${this.layout.builtinOverridesFile} is invalid (${this.problem}). Fix or remove it, then try again.`,
        );
      }
      const next: OverridesFile = { bundles: { ...this.overrides.bundles }, tools: { ...this.overrides.tools } };
      next[kind][id] = isEnabled;
      await writeFileAtomically(this.layout.builtinOverridesFile, stringifyStable({ ...next }, ['bundles', 'tools']), { within: this.layout.root });
      this.overrides = next;
    });
  }
}

function isFlagMap(value: unknown): value is Record<string, boolean> {
  return !!value && typeof value === 'object' && Object.values(value).every((flag) => typeof flag === 'boolean');
}

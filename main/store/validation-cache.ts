import { createHash } from 'node:crypto';
import { IMPL_SCHEMAS, ToolFileEnvelopeSchema } from '../../shared/schemas/tool.js';
import { readJsonFileSync, stringifyStable, writeFileAtomicallyMakingFolders } from '../common/json-files.js';

/** Bump when a rule in definition-checks.ts changes what is valid. */
// 2: patterns must run on the linear-time engine.
const RULES_VERSION = '2';

/** Identifies the rules a cached verdict was reached under. */
export const RULES_FINGERPRINT = createHash('sha256')
  .update(JSON.stringify({ envelope: ToolFileEnvelopeSchema, impls: IMPL_SCHEMAS, rules: RULES_VERSION }))
  .digest('base64url');

/**
 * Remembers which tool files were found valid, by the hash of their exact
 * text and under which rules. A start-up re-reads every file but skips the
 * deep checks (JSON Schema meta-validation, templates) for files unchanged
 * since they passed; any edit, or new rules, means a full check again.
 * Lives in <dataDir>/cache/, and losing it only costs time.
 */
export class ValidationCache {
  private known = new Map<string, string>();
  private next = new Map<string, string>();
  private pending: Promise<void> | null = null;

  constructor(
    private readonly file: string,
    private readonly dataDir: string,
  ) {}

  static digest(text: string): string {
    return createHash('sha1').update(text).digest('base64url');
  }

  loadSync(): void {
    const read = readJsonFileSync(this.file);
    if (!read.ok) return;
    const value = read.value as { fingerprint?: unknown; tools?: unknown };
    if (value?.fingerprint !== RULES_FINGERPRINT || !value.tools || typeof value.tools !== 'object') return;
    this.known = new Map(Object.entries(value.tools as Record<string, string>));
  }

  /** Whether this exact text passed before; the digest is for rememberValid, so each text is hashed once. */
  check(toolID: string, text: string): { known: boolean; digest: string } {
    const digest = ValidationCache.digest(text);
    return { known: this.known.get(toolID) === digest, digest };
  }

  rememberValid(toolID: string, digest: string): void {
    this.next.set(toolID, digest);
  }

  /** A text Toolbelt wrote from a definition it checked (an import's files), by its digest: reading it back needs no second check. */
  written(toolID: string, digest: string): void {
    this.known.set(toolID, digest);
    this.next.set(toolID, digest);
  }

  /** Writes what this load found, when it differs from what was there. */
  saveSoon(onError: (error: unknown) => void): void {
    const unchanged = this.next.size === this.known.size && [...this.next].every(([id, hash]) => this.known.get(id) === hash);
    if (unchanged) return;
    const tools = Object.fromEntries([...this.next].sort(([a], [b]) => (a < b ? -1 : 1)));
    this.pending = writeFileAtomicallyMakingFolders(this.file, stringifyStable({ fingerprint: RULES_FINGERPRINT, tools }, ['fingerprint', 'tools']), { within: this.dataDir }).catch(onError);
  }

  async flush(): Promise<void> {
    await this.pending;
  }
}

import type { ValidationIssue } from '../../shared/errors.js';
import type { DocumentValidator } from './document-validation.js';
import { FILES_SOURCE, type ToolRecord, type ValidTool } from './records.js';
import { checkedToolInput, draftProblems, newToolFile } from './tool-files.js';

interface DraftStore {
  findTool(bundleID: string, slug: string, version: string): Promise<ToolRecord | undefined>;
  requireBundle(bundleID: string): Promise<unknown>;
}

/** Tool definitions not saved yet: checked and tried as tools.put would take them, never written. */
export class Drafts {
  constructor(
    private readonly store: DraftStore,
    private readonly validator: DocumentValidator,
    private readonly now: () => string,
  ) {}

  /** Every problem tools.put would report for this draft, without writing: slug and version, the definition, and a taken <slug, version>. */
  async check(draft: unknown, address: { bundleID?: string; slug?: string; version?: string }): Promise<ValidationIssue[]> {
    const issues = draftProblems(this.validator, draft, address);
    if (issues.length === 0 && address.bundleID && address.slug && address.version) {
      const taken = await this.store.findTool(address.bundleID, address.slug, address.version);
      if (taken) issues.push({ path: '/version', message: `"${address.slug}" version "${address.version}" already exists in this bundle; choose another version.` });
    }
    return issues;
  }

  /** A draft as the record it would become, for trying it in the tester before saving. */
  async record(bundleID: string, draft: unknown): Promise<ValidTool> {
    await this.store.requireBundle(bundleID);
    const input = checkedToolInput(this.validator, draft, 'draft');
    const tool = newToolFile({ ...input, isEnabled: true }, { bundleID, slug: input.slug ?? 'draft', version: input.version ?? 'draft' }, this.now());
    return { kind: 'valid', toolID: tool.toolID, bundleID, tool, digest: '', source: FILES_SOURCE };
  }
}

import { newUuidV7 } from '../common/uuid-v7.js';
import { ToolbeltError, type ValidationIssue } from '../../shared/errors.js';
import type { AgentImpl } from '../../shared/schemas/agent.js';
import type { BundleFile, BundleInput } from '../../shared/schemas/bundle.js';
import { isSlug, isVersion, SLUG_HINT, VERSION_HINT } from '../../shared/schemas/ids.js';
import type { ToolFile, ToolInput } from '../../shared/schemas/tool.js';
import { describeIssues } from '../common/validation.js';
import type { DocumentValidator } from './document-validation.js';

// ASCII is its own NFC form: the common case skips normalising, which every lookup does.
const ASCII = /^[\x20-\x7e]*$/;
export const nfc = (value: string) => (ASCII.test(value) ? value : value.normalize('NFC'));

/** bundle.json for what a person gave: defaults filled, built-in never. */
export function bundleFileFrom(bundleID: string, input: BundleInput, times: { createdAt: string; modifiedAt: string }): BundleFile {
  return {
    schemaVersion: '1',
    bundleID,
    slug: nfc(input.slug),
    displayName: input.displayName,
    description: input.description ?? '',
    isEnabled: input.isEnabled ?? true,
    isBuiltIn: false,
    ...(input.http ? { http: input.http } : {}),
    ...(input.hooks ? { hooks: input.hooks } : {}),
    ...times,
  };
}

/** The deep checks of tools.put; their problems, with JSON pointers, as invalid_params (schema_too_large for a schema past the limits). */
export function checkedToolInput(validator: DocumentValidator, value: unknown, what: 'tool' | 'draft'): ToolInput {
  const checked = validator.toolInput(value);
  if (!checked.ok) {
    throw new ToolbeltError(checked.code ?? 'invalid_params', `The ${what} is invalid: ${describeIssues(checked.issues)}`, { issues: checked.issues });
  }
  return checked.value;
}

/** The problems of a draft's address and definition that tools.put would report, before looking at what is taken. */
export function draftProblems(validator: DocumentValidator, draft: unknown, address: { slug?: string; version?: string }): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  if (address.slug !== undefined && !isSlug(nfc(address.slug))) issues.push({ path: '/slug', message: SLUG_HINT });
  if (address.version !== undefined && !isVersion(nfc(address.version))) issues.push({ path: '/version', message: VERSION_HINT });
  const checked = validator.toolInput(draft);
  if (!checked.ok) issues.push(...checked.issues);
  return issues;
}

/** A new tool.json from a checked definition: fresh id, timestamps `now`, defaults filled. */
export function newToolFile(input: ToolInput, address: { bundleID: string; slug: string; version: string }, now: string): ToolFile {
  // An agent is never offered to itself (agents call agents through another agent, three deep at most).
  const itself = input.type === 'agent' ? (input.impl as AgentImpl).tools.findIndex((tool) => tool.bundleID === address.bundleID && tool.slug === address.slug) : -1;
  if (itself !== -1) {
    throw new ToolbeltError('invalid_params', `${input.displayName} cannot be among its own tools: an agent is never offered to itself. Take it out of its tools.`, {
      issues: [{ path: `/impl/tools/${itself}`, message: 'is the agent itself' }],
    });
  }
  return {
    schemaVersion: '1',
    toolID: newUuidV7(),
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

export function notFound(message: string): ToolbeltError {
  return new ToolbeltError('not_found', message);
}

export function fileInvalid(file: string, reason: string): ToolbeltError {
  return new ToolbeltError('file_invalid', `${file} is invalid (${reason}). Fix the file, then try again.`, { file, reason });
}

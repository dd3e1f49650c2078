import { createHash } from 'node:crypto';
import { ToolbeltError } from '../../shared/errors.js';
import { EXPOSED_NAME_PATTERN, type ChatTools, type ToolSelection } from '../../shared/schemas/chat.js';
import type { ToolDefinition } from '../providers/model.js';
import type { ValidTool } from '../store/records.js';
import type { ToolStore } from '../store/tool-store.js';
import type { ToolResolver } from './resolver.js';

const exposedName = new RegExp(EXPOSED_NAME_PATTERN);

/**
 * The name a provider accepts for a slug: the slug itself when it is plain
 * ASCII; otherwise its letters without accents, anything else as "_", and
 * a hash of the tool's address so the name stays stable and distinct.
 */
export function providerSafeName(selection: Pick<ToolSelection, 'bundleID' | 'slug' | 'version'>): string {
  if (exposedName.test(selection.slug)) return selection.slug;
  const folded = selection.slug
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .replace(/[^a-zA-Z0-9_-]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .slice(0, 48);
  const hash = createHash('sha256').update(`${selection.bundleID}/${selection.slug}/${selection.version}`).digest('hex').slice(0, 8);
  return `${folded || 'tool'}_${hash}`;
}

export function toolKey(ref: Pick<ToolSelection, 'bundleID' | 'slug' | 'version'>): string {
  return `${ref.bundleID}/${ref.slug}/${ref.version}`;
}

export interface ExposedTool {
  name: string;
  selection: ToolSelection;
  record: ValidTool;
  bundleName: string;
  definition: ToolDefinition;
}

export interface ToolExposure {
  /** Tools the model may call, by exposed name. */
  byName: Map<string, ExposedTool>;
  definitions: ToolDefinition[];
  /** Selected tools that cannot be offered now, with why (switched off, deleted, broken). */
  withheld: Map<string, string>;
  /** Tools this chat never allows, by the name the model would call them. */
  denied: Map<string, ToolSelection>;
}

function parametersOf(schema: Record<string, unknown>): Record<string, unknown> {
  // Several providers refuse JSON Schema's document keywords at the top level.
  const { $schema: _schema, $id: _id, ...rest } = schema;
  return { type: 'object', ...rest };
}

/** Checks a chat's selection when it is saved: every tool exists and every name is distinct. */
export async function checkSelection(tools: ChatTools, store: ToolStore): Promise<void> {
  const seen = new Map<string, string>();
  for (const selection of tools.selected) {
    const record = await store.findTool(selection.bundleID, selection.slug, selection.version);
    if (!record) {
      throw new ToolbeltError('not_found', `The tool ${selection.slug} version ${selection.version} does not exist in that bundle.`);
    }
    const name = selection.as ?? providerSafeName(selection);
    const other = seen.get(name);
    if (other) {
      throw new ToolbeltError(
        'conflict',
        `Two selected tools would both be shown to the model as "${name}" (${other} and ${toolKey(selection)}). Give one of them an alias.`,
        { name },
      );
    }
    seen.set(name, toolKey(selection));
  }
}

/** What a chat offers the model now: its selection, less what is off or gone. */
export async function exposeTools(tools: ChatTools, resolver: ToolResolver): Promise<ToolExposure> {
  const byName = new Map<string, ExposedTool>();
  const withheld = new Map<string, string>();
  const denied = new Map<string, ToolSelection>();
  if (tools.mode === 'none') return { byName, definitions: [], withheld, denied };
  for (const selection of tools.selected) {
    const name = selection.as ?? providerSafeName(selection);
    if (selection.denied) {
      denied.set(name, selection);
      // Also under its slug: a model may call it by the name it had before an alias.
      if (!denied.has(selection.slug)) denied.set(selection.slug, selection);
      continue;
    }
    const readiness = await resolver.resolve(selection);
    if (!readiness.ok) {
      withheld.set(name, readiness.why);
      continue;
    }
    const { record, bundle } = readiness;
    const tool = record.tool;
    byName.set(name, {
      name,
      selection,
      record,
      bundleName: bundle.bundle.displayName,
      definition: { name, description: tool.description || tool.displayName, parameters: parametersOf(tool.argSchema) },
    });
  }
  return { byName, definitions: [...byName.values()].map((tool) => tool.definition), withheld, denied };
}

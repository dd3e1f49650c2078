import { createHash } from 'node:crypto';
import { ToolbeltError } from '../../shared/errors.js';
import { EXPOSED_NAME_PATTERN, type ChatTools, type ToolDiscovery, type ToolRef, type ToolSelection } from '../../shared/schemas/chat.js';
import { isForModels } from '../../shared/schemas/http-impl.js';
import type { ToolDefinition } from '../providers/model.js';
import type { ValidTool } from '../store/records.js';
import type { ToolStore } from '../store/tool-store.js';
import { selectionKey } from '../consent/door.js';
import { chooseDiscovery, type Discovery, type SearchUnavailable } from './discovery.js';
import type { ToolResolver, ValidBundle } from './resolver.js';

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

/** A tool's address as one key: the key a chat's "Always allow" list keeps it under, the door's own. */
export const toolKey = selectionKey;

/**
 * How a chat's (or an agent's) tool list names a tool: picked by hand, else
 * through its whole bundle, with the switches that go with it; undefined
 * when it reaches the tool neither way (tool search, say).
 */
export function selectionOf(tools: ChatTools, ref: Pick<ToolSelection, 'bundleID' | 'slug' | 'version'>): ToolSelection | undefined {
  const picked = tools.selected.find((selection) => selection.bundleID === ref.bundleID && selection.slug === ref.slug);
  if (picked) return picked;
  const bundle = tools.bundles?.find((entry) => entry.bundleID === ref.bundleID);
  if (!bundle) return undefined;
  return { bundleID: ref.bundleID, slug: ref.slug, version: ref.version, ...(bundle.requiresApproval ? { requiresApproval: true } : {}), ...(bundle.denied ? { denied: true } : {}) };
}

export interface ExposedTool {
  name: string;
  selection: ToolSelection;
  record: ValidTool;
  bundleName: string;
  definition: ToolDefinition;
}

export interface ToolExposure {
  /** Tools the model may call now, by exposed name. */
  byName: Map<string, ExposedTool>;
  /** What is offered, in order: the fixed set first, tools loaded by search after it, so a provider's prompt cache holds. */
  definitions: ToolDefinition[];
  /** Tools the chat reaches that are not offered yet: the model finds them with tool_search. */
  deferred: Map<string, ExposedTool>;
  /** Selected tools that cannot be offered now, with why (switched off, deleted, broken). */
  withheld: Map<string, string>;
  /** Tools this chat never allows, by the name the model would call them. */
  denied: Map<string, ToolSelection>;
  /** How the tools are offered and what that costs. */
  discovery: Discovery;
}

export interface ExposeOptions {
  /** How the chat offers its tools (Settings' default already applied); `all` when absent. */
  discovery?: ToolDiscovery;
  /** The tools the model loaded with tool_search, in the order found. */
  loaded?: readonly ToolRef[];
  /** The built-in that searches, offered as `tool_search` when the chat searches. */
  toolSearch?: ToolRef;
  /** The provider searches deferred tools itself (Anthropic's tool search): every tool is sent, the unpinned ones deferred. */
  nativeSearch?: boolean;
}

/** The name tool search is offered under, for every provider. */
export const TOOL_SEARCH_NAME = 'tool_search';

function parametersOf(schema: Record<string, unknown>): Record<string, unknown> {
  // Several providers refuse JSON Schema's document keywords at the top level.
  const { $schema: _schema, $id: _id, ...rest } = schema;
  return { type: 'object', ...rest };
}

function exposed(name: string, selection: ToolSelection, record: ValidTool, bundle: ValidBundle): ExposedTool {
  const tool = record.tool;
  return { name, selection, record, bundleName: bundle.bundle.displayName, definition: { name, description: tool.description || tool.displayName, parameters: parametersOf(tool.argSchema) } };
}

/** Checks a chat's selection when it is saved: every tool exists and every name is distinct. */
export async function checkSelection(tools: ChatTools, store: ToolStore): Promise<void> {
  const seen = new Map<string, { selection: ToolSelection; said: string }>();
  for (const selection of tools.selected) {
    const record = await store.findTool(selection.bundleID, selection.slug, selection.version);
    if (!record) {
      throw new ToolbeltError('not_found', `The tool ${selection.slug} version ${selection.version} does not exist in that bundle.`);
    }
    const name = selection.as ?? providerSafeName(selection);
    // In words a person knows the tools by: their names, versions and bundles, not their IDs.
    const bundle = store.bundle(selection.bundleID);
    const said = `“${record.kind === 'valid' ? record.tool.displayName : selection.slug}” ${selection.version} of ${bundle?.kind === 'valid' ? bundle.bundle.displayName : 'its bundle'}`;
    const other = seen.get(name);
    if (other) {
      const versions = other.selection.bundleID === selection.bundleID && other.selection.slug === selection.slug;
      throw new ToolbeltError(
        'conflict',
        versions
          ? `${other.said} and ${selection.version} are two versions of one tool, and the model would see both as "${name}". Choose one version, or give one of them another name (an alias).`
          : `${other.said} and ${said} would both reach the model as "${name}". Give one of them another name (an alias).`,
        { name },
      );
    }
    seen.set(name, { selection, said });
  }
  for (const entry of tools.bundles ?? []) {
    if (!store.bundle(entry.bundleID)) throw new ToolbeltError('not_found', `There is no bundle ${entry.bundleID} to add to this chat.`);
  }
}

/** A name that fits every provider (64 characters of letters, digits, _ and -), kept distinct by a hash when cut. */
function fitName(name: string, address: string): string {
  if (name.length <= 64) return name;
  return `${name.slice(0, 55)}_${createHash('sha256').update(address).digest('hex').slice(0, 8)}`;
}

/**
 * The whole bundles' tools, named: a tool's own name when no other tool of
 * the chat has it, else its bundle's slug before it ("github_list_issues"),
 * so two bundles with the same tool names stay apart and say whose.
 */
function bundleTools(tools: ChatTools, resolver: ToolResolver, taken: ReadonlySet<string>, picked: ReadonlySet<string>, denied: Map<string, ToolSelection>): ExposedTool[] {
  const found: { selection: ToolSelection; record: ValidTool; bundle: ValidBundle; base: string }[] = [];
  for (const entry of tools.bundles ?? []) {
    const reach = resolver.bundleTools(entry.bundleID);
    if (!reach.ok) continue;
    for (const record of [...reach.tools].sort((a, b) => a.tool.slug.localeCompare(b.tool.slug))) {
      const { slug, version } = record.tool;
      // A tool picked by hand keeps the person's settings for it, whatever its bundle's say.
      if (picked.has(`${entry.bundleID}/${slug}`)) continue;
      // A tool its server keeps for its app (MCP Apps) is called by the app, never offered to a model.
      if (!isForModels(record.tool)) continue;
      const selection: ToolSelection = { bundleID: entry.bundleID, slug, version, ...(entry.requiresApproval ? { requiresApproval: true } : {}) };
      const base = providerSafeName(selection);
      if (entry.denied) {
        denied.set(base, selection);
        continue;
      }
      found.push({ selection, record, bundle: reach.bundle, base });
    }
  }
  const count = new Map<string, number>();
  for (const { base } of found) count.set(base, (count.get(base) ?? 0) + 1);
  return found.map(({ selection, record, bundle, base }) => {
    const plain = !taken.has(base) && count.get(base) === 1;
    const prefix = providerSafeName({ bundleID: selection.bundleID, slug: bundle.bundle.slug, version: 'bundle' });
    return exposed(plain ? base : fitName(`${prefix}_${base}`, toolKey(selection)), selection, record, bundle);
  });
}

/** What a chat offers the model now: its picked tools and whole bundles, less what is off or gone, all at once or found by search. */
export async function exposeTools(tools: ChatTools, resolver: ToolResolver, options: ExposeOptions = {}): Promise<ToolExposure> {
  const withheld = new Map<string, string>();
  const denied = new Map<string, ToolSelection>();
  const reachable: ExposedTool[] = [];
  if (tools.mode === 'none') return { byName: new Map(), definitions: [], deferred: new Map(), withheld, denied, discovery: chooseDiscovery('all', [], null) };
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
    if (!isForModels(readiness.record.tool)) {
      withheld.set(name, 'its MCP server keeps it for its app (visibility "app"): the app calls it, a model is not offered it');
      continue;
    }
    reachable.push(exposed(name, selection, readiness.record, readiness.bundle));
  }
  const taken = new Set([...reachable.map((tool) => tool.name), ...denied.keys()]);
  const picked = new Set(tools.selected.map((selection) => `${selection.bundleID}/${selection.slug}`));
  reachable.push(...bundleTools(tools, resolver, taken, picked, denied));

  const search = options.toolSearch ? await resolver.resolve(options.toolSearch) : null;
  const searcher = search?.ok && !reachable.some((tool) => tool.name === TOOL_SEARCH_NAME) ? exposed(TOOL_SEARCH_NAME, { ...options.toolSearch!, as: TOOL_SEARCH_NAME }, search.record, search.bundle) : null;
  const native = options.nativeSearch === true;
  const unavailable: SearchUnavailable | null =
    native || searcher
      ? null
      : !search
        ? { why: 'no_search', text: 'tool search is not available here' }
        : search.ok
          ? { why: 'name_taken', text: `tool search is not available: a tool of this chat is named ${TOOL_SEARCH_NAME}` }
          : { why: 'search_cannot_run', text: `tool search is not available: ${search.why}` };
  const discovery = chooseDiscovery(options.discovery ?? 'all', reachable.map((tool) => tool.definition), unavailable);
  const byName = new Map<string, ExposedTool>();
  const deferred = new Map<string, ExposedTool>();
  if (discovery.mode === 'all') {
    for (const tool of reachable) byName.set(tool.name, tool);
  } else if (native) {
    // Every tool is sent, in one order that never changes (the prompt cache holds); the provider loads what its search finds.
    for (const tool of reachable) if (tool.selection.pinned) byName.set(tool.name, tool);
    for (const tool of reachable) if (!byName.has(tool.name)) byName.set(tool.name, { ...tool, definition: { ...tool.definition, deferred: true } });
    discovery.reason = `${discovery.reason} The provider runs the search itself (Anthropic's tool search).`;
  } else {
    for (const tool of reachable) if (tool.selection.pinned) byName.set(tool.name, tool);
    byName.set(TOOL_SEARCH_NAME, searcher!);
    const byAddress = new Map(reachable.map((tool) => [`${tool.selection.bundleID}/${tool.selection.slug}`, tool]));
    // Loaded tools follow their bundle to the latest version, in the order they were found.
    for (const ref of options.loaded ?? []) {
      const tool = byAddress.get(`${ref.bundleID}/${ref.slug}`);
      if (tool && !byName.has(tool.name)) byName.set(tool.name, tool);
    }
    for (const tool of reachable) if (!byName.has(tool.name)) deferred.set(tool.name, tool);
  }
  const definitions = [...byName.values()].map((tool) => tool.definition);
  return { byName, definitions, deferred, withheld, denied, discovery: { ...discovery, offeredTokens: tokensOf(definitions.filter((definition) => !definition.deferred)) } };
}

function tokensOf(definitions: readonly ToolDefinition[]): number {
  return Math.ceil(JSON.stringify(definitions).length / 4);
}

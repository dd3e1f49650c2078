import { ToolbeltError } from '../../../shared/errors.js';
import { OFFICIAL_MCP_REGISTRY, type InstallPlan, type RegistryPage } from '../../../shared/schemas/mcp-install.js';
import type { McpServerView } from '../../../shared/schemas/mcp.js';
import type { Clock } from '../../common/clock.js';
import { readUpTo } from '../../common/read-up-to.js';
import type { SecretStore } from '../../secrets/secret-store.js';
import type { ServerRoster } from '../mcpb/mcpb-installs.js';
import { foreignPlaceholders, planOf, serverNameFor } from '../install-plan.js';
import { serverFor } from './registry-config.js';
import { choicesOf, readEntry, type RawEntry } from './registry-entry.js';

/** A registry's answer is read up to this size: a page of 100 entries is far below it. */
const MAX_ANSWER_BYTES = 5 * 1024 * 1024;
const TIMEOUT_MS = 15_000;
const FRESH_MS = 10 * 60_000;
const MAX_CACHED = 200;

interface Kept<T> {
  value: T;
  at: number;
}

export interface RegistryChoiceParams {
  registry?: string | undefined;
  name: string;
  version: string;
  choice: string;
  values?: Record<string, string> | undefined;
  serverName?: string | undefined;
}

/**
 * MCP registries (the official one and those the person adds): search a page
 * at a time (`GET {registry}/v0.1/servers`), kept for ten minutes and
 * answered from what was kept when the registry cannot be reached; an entry's
 * choice turned into the exact server it would add, then added.
 */
export class McpRegistry {
  private readonly pages = new Map<string, Kept<RegistryPage>>();
  private readonly entries = new Map<string, Kept<RawEntry>>();

  constructor(
    private readonly deps: {
      registries: () => string[];
      servers: ServerRoster;
      secrets: SecretStore;
      clock: Clock;
      fetch?: typeof globalThis.fetch;
    },
  ) {}

  /** The registries that may be asked: the official one and the person's own (never any URL a caller names). */
  private registry(asked: string | undefined): string {
    const base = (asked ?? OFFICIAL_MCP_REGISTRY).replace(/\/+$/, '');
    const known = [OFFICIAL_MCP_REGISTRY, ...this.deps.registries()].map((url) => url.replace(/\/+$/, ''));
    if (!known.includes(base)) throw new ToolbeltError('invalid_params', `${base.slice(0, 200)} is not one of your MCP registries: add it in Settings first.`);
    return base;
  }

  async search(params: { registry?: string | undefined; search?: string | undefined; cursor?: string | undefined; limit?: number | undefined }): Promise<RegistryPage> {
    const registry = this.registry(params.registry);
    const query = new URLSearchParams({ limit: String(params.limit ?? 30), version: 'latest' });
    if (params.search) query.set('search', params.search);
    if (params.cursor) query.set('cursor', params.cursor);
    const key = `${registry}/v0.1/servers?${query.toString()}`;
    const kept = this.pages.get(key);
    const now = this.deps.clock.now().getTime();
    if (kept && now - kept.at < FRESH_MS) return { ...kept.value, cached: true };
    let answer: unknown;
    try {
      answer = await this.get(registry, key);
    } catch (error) {
      if (kept && error instanceof ToolbeltError && error.code === 'registry_unreachable') return { ...kept.value, cached: true, offline: true };
      throw error;
    }
    if (typeof answer !== 'object' || answer === null || !Array.isArray((answer as { servers?: unknown }).servers)) {
      throw new ToolbeltError('registry_invalid', `${registry} did not answer with a list of servers: is it an MCP registry (it should serve /v0.1/servers)?`);
    }
    const raw = (answer as { servers: unknown[] }).servers.slice(0, 100);
    const servers = raw.flatMap((item) => {
      const entry = readEntry(item);
      if (!entry) return [];
      this.keep(this.entries, `${registry}|${entry.summary.name}|${entry.summary.version}`, entry);
      return [{ ...entry.summary, choices: choicesOf(entry) }];
    });
    const metadata = (answer as { metadata?: { nextCursor?: unknown } }).metadata;
    const next = typeof metadata?.nextCursor === 'string' && metadata.nextCursor.length > 0 && metadata.nextCursor.length <= 2_000 ? metadata.nextCursor : undefined;
    // A registry that hands back the cursor it was given would page forever: that is the end.
    const page: RegistryPage = { registry, servers, ...(next && next !== params.cursor ? { nextCursor: next } : {}), cached: false };
    this.keep(this.pages, key, page);
    return page;
  }

  /** What installing a choice would add, exactly: for the person's confirmation. */
  async plan(params: RegistryChoiceParams): Promise<InstallPlan> {
    const { plan } = await this.prepare(params);
    return plan;
  }

  async install(params: RegistryChoiceParams): Promise<McpServerView> {
    const { plan, secrets } = await this.prepare(params);
    for (const [name, value] of secrets) await this.deps.secrets.put(name, value);
    const [view] = await this.deps.servers.putAll({ [plan.serverName]: plan.config });
    return view!;
  }

  private async prepare(params: RegistryChoiceParams): Promise<{ plan: InstallPlan; secrets: Map<string, string> }> {
    const registry = this.registry(params.registry);
    const entry = await this.entry(registry, params.name, params.version);
    const { config, secrets } = serverFor(entry, params.choice, params.values ?? {});
    const foreign = foreignPlaceholders(config, new Set(secrets.keys()));
    if (foreign.length) throw new ToolbeltError('install_names_secret', `${entry.summary.name} names ${foreign.join(', ')}: values Toolbelt would fill in from your secrets or environment, which a registry entry is not given.`);
    const existing = this.deps.servers.list();
    const wanted = params.serverName ?? entry.summary.title ?? entry.summary.name.split('/').pop() ?? entry.summary.name;
    const serverName = params.serverName ?? serverNameFor(wanted, existing);
    const replaces = existing.some((server) => server.name === serverName);
    return { plan: planOf(serverName, config, [...secrets.keys()], replaces), secrets };
  }

  private async entry(registry: string, name: string, version: string): Promise<RawEntry> {
    const key = `${registry}|${name}|${version}`;
    const kept = this.entries.get(key);
    if (kept && this.deps.clock.now().getTime() - kept.at < FRESH_MS) return kept.value;
    const url = `${registry}/v0.1/servers/${encodeURIComponent(name)}/versions/${encodeURIComponent(version)}`;
    const entry = readEntry(await this.get(registry, url));
    if (!entry || entry.summary.name !== name) throw new ToolbeltError('registry_invalid', `${registry} did not answer with ${name} ${version}.`);
    this.keep(this.entries, key, entry);
    return entry;
  }

  private keep<T>(map: Map<string, Kept<T>>, key: string, value: T): void {
    map.delete(key);
    map.set(key, { value, at: this.deps.clock.now().getTime() });
    while (map.size > MAX_CACHED) map.delete(map.keys().next().value!);
  }

  /** One GET, its answer JSON of at most 5 MB; each way it can fail said as a registry that cannot be reached or answers wrong. */
  private async get(registry: string, url: string): Promise<unknown> {
    const fetch = this.deps.fetch ?? globalThis.fetch;
    let response: Response;
    try {
      response = await fetch(url, { headers: { Accept: 'application/json' }, signal: AbortSignal.timeout(TIMEOUT_MS), redirect: 'follow' });
    } catch (error) {
      throw new ToolbeltError('registry_unreachable', `${registry} cannot be reached (${error instanceof Error ? error.message : String(error)}): are you offline?`);
    }
    if (response.status === 404) {
      await response.body?.cancel();
      throw new ToolbeltError('not_found', `${registry} has no such server (404).`);
    }
    if (!response.ok) {
      await response.body?.cancel();
      throw new ToolbeltError('registry_unreachable', `${registry} answered ${response.status}; try again later.`);
    }
    if (!/\bjson\b/i.test(response.headers.get('content-type') ?? '')) {
      await response.body?.cancel();
      throw new ToolbeltError('registry_invalid', `${registry} answered with ${response.headers.get('content-type') || 'no content type'}, not JSON: is it an MCP registry?`);
    }
    const { text, truncated } = await readUpTo(response, MAX_ANSWER_BYTES);
    if (truncated) throw new ToolbeltError('registry_invalid', `${registry} answered with more than 5 MB: a registry's page is far smaller.`);
    try {
      return JSON.parse(text) as unknown;
    } catch {
      throw new ToolbeltError('registry_invalid', `${registry} answered with JSON that cannot be read.`);
    }
  }
}

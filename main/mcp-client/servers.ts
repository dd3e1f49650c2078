import path from 'node:path';
import { auth, type OAuthClientProvider, type ElicitResult, type Tool } from '@modelcontextprotocol/client';
import { ToolbeltError } from '../../shared/errors.js';
import { McpServerConfigSchema, McpServerNameSchema, type McpServerConfig, type McpServerView } from '../../shared/schemas/mcp.js';
import { inBackground } from '../common/background.js';
import type { Clock } from '../common/clock.js';
import { withFileLock } from '../common/file-lock.js';
import { readJsonFile, stringifyStable, writeFileAtomically } from '../common/json-files.js';
import { compileOnFirstUse, describeIssues, issuesFrom } from '../common/validation.js';
import type { Logger } from '../log.js';
import type { LiveQuestions } from '../questions/live-questions.js';
import type { SecretStore } from '../secrets/secret-store.js';
import type { StoreLayout } from '../store/layout.js';
import { SwitchOverrides, type ReadOnlySource } from '../store/sources.js';
import type { ToolStore } from '../store/tool-store.js';
import { McpConnection, type ResolvedConfig } from './connection.js';
import { expandConfigValue } from './config-values.js';
import { mcpBundleID } from './identity.js';
import { contentsView, promptMessagesView, promptView, resourceView, serverRefusal, templateView } from './offerings.js';
import { appOf, mcpRecords, mcpSourceID, type LeftOutTool } from './records.js';
import { ToolListCache } from './tool-list-cache.js';
import type { OAuthCallbackServer } from '../tools/http/oauth-callback.js';
import { McpOAuthProvider, registeredPort } from './oauth-provider.js';
import { machineClient } from './machine-client.js';
import { OAuthVault } from './oauth-vault.js';

interface Server {
  config: McpServerConfig;
  connection: McpConnection | null;
  starting: Promise<void>;
  listeners: Set<() => void>;
  /** Restarts after crashes in a row; reset once it has run a while. */
  restarts: number;
  restartTimer: NodeJS.Timeout | null;
  /** Tools it offers that Toolbelt does not, and why (its panel lists them). */
  leftOut?: LeftOutTool[];
}

/** A crashed server is started again after 1, 2, 4, 8 and 16 s; then it waits for the person. */
const RESTART_DELAYS_MS = [1_000, 2_000, 4_000, 8_000, 16_000];
const STABLE_AFTER_MS = 60_000;

/**
 * The MCP servers a person configured, in <dataDir>/mcp.json in the shape
 * Claude Desktop uses (`{ "mcpServers": { name: config } }`; secrets only by
 * name). Each is a read-only source of the store (one bundle per server,
 * switches in mcp-switches.json), started when configured, and reported
 * with its state and, when it failed, why.
 */
export class McpServers {
  private readonly servers = new Map<string, Server>();
  private readonly file: string;
  private readonly switches: SwitchOverrides;
  private readonly toolCache: ToolListCache;
  private readonly oauthVault: OAuthVault;
  /** Tool lists being kept: closing waits for them, so nothing is written after the core is closed. */
  private readonly cacheWrites = new Set<Promise<void>>();
  private readonly validConfig = compileOnFirstUse(McpServerConfigSchema, { strict: false });
  private readonly validName = compileOnFirstUse(McpServerNameSchema, { strict: false });
  /** The login shell's PATH, asked once, when the first stdio server starts. */
  private searchPath: Promise<string> | undefined;

  constructor(
    private readonly deps: {
      layout: StoreLayout;
      store: ToolStore;
      secrets: SecretStore;
      questions: LiveQuestions;
      clock: Clock;
      log: Logger;
      shellPath: () => Promise<string>;
      /** The loopback redirect of sign-ins, shared with HTTP tools' OAuth; its owner closes it. */
      oauthCallbacks: OAuthCallbackServer;
      /** How long a server has to answer the handshake (default 30 s). */
      connectTimeoutMs?: number;
      /** A server said its prompts or resources changed. */
      offeringsChanged?: (server: string) => void;
    },
  ) {
    this.file = path.join(deps.layout.root, 'mcp.json');
    this.toolCache = new ToolListCache(deps.layout.root);
    this.oauthVault = new OAuthVault(deps.layout, deps.secrets.cipher, deps.log);
    this.switches = new SwitchOverrides(deps.layout, path.join(deps.layout.root, 'mcp-switches.json'), 'mcp-switches');
  }

  /** Reads mcp.json and starts every server that is not off, without waiting for them. */
  async open(): Promise<void> {
    const configs = await this.readFile();
    for (const [name, config] of Object.entries(configs)) await this.attach(name, config);
  }

  list(): McpServerView[] {
    return [...this.servers.keys()].sort().map((name) => this.view(name));
  }

  async put(name: string, config: McpServerConfig): Promise<McpServerView> {
    const [view] = await this.putAll({ [name]: config });
    return view!;
  }

  /** Several at once (a pasted `mcpServers` document): one write, then they start side by side. */
  async putAll(configs: Record<string, McpServerConfig>): Promise<McpServerView[]> {
    await this.writeFile((servers) => ({ ...servers, ...configs }));
    const names = Object.keys(configs);
    for (const name of names) {
      await this.detach(name);
      await this.attach(name, configs[name]!, { startNow: true });
    }
    await Promise.all(names.map((name) => this.servers.get(name)!.starting));
    return names.map((name) => this.view(name));
  }

  async delete(name: string): Promise<void> {
    this.require(name);
    await this.writeFile((servers) => Object.fromEntries(Object.entries(servers).filter(([key]) => key !== name)));
    await this.detach(name);
    // Its sign-in goes with it: a server added again under this name signs in again.
    await this.oauthVault.forget(name);
  }

  async restart(name: string): Promise<McpServerView> {
    const { config } = this.require(name);
    await this.detach(name);
    await this.attach(name, config, { startNow: true });
    await this.servers.get(name)!.starting;
    return this.view(name);
  }

  connection(name: string): McpConnection | undefined {
    return this.servers.get(name)?.connection ?? undefined;
  }

  timeoutMs(name: string): number | undefined {
    return this.servers.get(name)?.config.timeoutMs;
  }

  /** The app is closing: the tasks calls follow are left to their servers (not cancelled), for the next start to follow again. */
  leaveTasks(): void {
    for (const name of this.servers.keys()) this.connection(name)?.leaveTasks();
  }

  async close(): Promise<void> {
    await Promise.all([...this.servers.keys()].map((name) => this.detach(name)));
    await Promise.allSettled([...this.cacheWrites]);
  }

  async resources(name: string) {
    const { resources, templates } = await this.onServer(name, 'list its resources', (connection) => connection.resources());
    return { resources: resources.map(resourceView), templates: templates.map(templateView) };
  }

  async readResource(name: string, uri: string) {
    return { contents: contentsView(await this.onServer(name, `read ${uri}`, (connection) => connection.readResource(uri))) };
  }

  /** A resource as the server sent it, `_meta` and all (an MCP App's document carries its sandbox's needs there). */
  async rawResource(name: string, uri: string) {
    return this.onServer(name, `read ${uri}`, (connection) => connection.readResource(uri));
  }

  async prompts(name: string) {
    return { prompts: (await this.onServer(name, 'list its prompts', (connection) => connection.prompts())).map(promptView) };
  }

  async getPrompt(name: string, prompt: string, args: Record<string, string>) {
    return promptMessagesView(await this.onServer(name, `fill in the prompt ${prompt}`, (connection) => connection.getPrompt(prompt, args)));
  }

  /** Asks a server something once it is up; off or failed servers say so, the server's own errors are `mcp_error`. */
  private async onServer<T>(name: string, what: string, ask: (connection: McpConnection) => Promise<T>): Promise<T> {
    const server = this.require(name);
    if (server.config.disabled) throw new ToolbeltError('unavailable', `The MCP server ${name} is off. Switch it on to ${what}.`);
    await this.ensureStarted(name);
    const connection = server.connection;
    if (!connection || connection.state !== 'connected') {
      throw new ToolbeltError('unavailable', `The MCP server ${name} is not running, so it cannot ${what}. ${connection?.failure?.message ?? ''}`.trim());
    }
    return ask(connection).catch((error: unknown) => serverRefusal(name, what, error));
  }

  private async attach(name: string, config: McpServerConfig, options: { startNow?: boolean } = {}): Promise<void> {
    const server: Server = { config, connection: null, starting: Promise.resolve(), listeners: new Set(), restarts: 0, restartTimer: null };
    this.servers.set(name, server);
    const changed = () => {
      for (const listener of server.listeners) listener();
    };
    const source: ReadOnlySource = {
      id: mcpSourceID(name),
      refusal: { code: 'source_readonly', message: (verb) => `Tools of the MCP server ${name} come from the server: you cannot ${verb} them here. Only switching them on or off is allowed.` },
      switches: this.switches,
      load: () => {
        const at = this.deps.clock.now().toISOString();
        const { bundle, tools, skipped } = mcpRecords(name, server.connection?.tools ?? [], at, server.config.askFirst);
        server.leftOut = skipped;
        if (skipped.length) this.deps.log.warn('an MCP server offers tools Toolbelt leaves out', { server: name, tools: skipped.map((tool) => tool.name) });
        return { bundles: [bundle], tools };
      },
      subscribe: (listener) => {
        server.listeners.add(listener);
        return () => server.listeners.delete(listener);
      },
    };
    if (config.disabled) {
      await this.deps.store.sources.add(source);
      return;
    }
    // A server whose tools are known waits for its first use, unless it is marked to start with Toolbelt.
    const known = await this.toolCache.read(name);
    const cachedTools = options.startNow || config.eager ? null : (known?.tools ?? null);
    const listed = (tools: Tool[]) => {
      const protocolVersion = server.connection?.protocolVersion;
      const writing = this.toolCache.write(name, { tools, ...(protocolVersion ? { protocolVersion } : {}) }).finally(() => this.cacheWrites.delete(writing));
      this.cacheWrites.add(writing);
      inBackground(writing, (error) => this.deps.log.warn('the MCP tool list could not be kept for the next start', { server: name, error: String(error) }));
    };
    server.connection = new McpConnection(
      name,
      config,
      () => this.resolveSecrets(name, config),
      () => (this.searchPath ??= this.deps.shellPath()),
      { changed, exited: () => this.restartLater(name, server), listed, signInNeeded: () => this.awaitSignIn(name, server), offeringsChanged: () => this.deps.offeringsChanged?.(name), log: this.deps.log },
      {
        askPerson: (message, schema, signal) => this.askPerson(name, message, schema, signal),
        ...('url' in config ? { authProvider: () => this.oauthProvider(name) } : {}),
        ...(this.deps.connectTimeoutMs ? { connectTimeoutMs: this.deps.connectTimeoutMs } : {}),
        ...(cachedTools ? { cachedTools } : {}),
        ...(known?.protocolVersion ? { rememberedVersion: known.protocolVersion } : {}),
      },
    );
    await this.deps.store.sources.add(source);
    if (!cachedTools) this.startNow(name, server);
  }

  /** Starts an idle server (its first use) and waits until it is connected or has failed. */
  async ensureStarted(name: string): Promise<void> {
    const server = this.servers.get(name);
    if (server?.connection?.state === 'idle') this.startNow(name, server);
    await server?.starting;
  }

  private startNow(name: string, server: Server, options: { reregistered?: boolean } = {}): void {
    const connection = server.connection!;
    server.starting = connection.start().then(() => {
      if (connection.state === 'failed') this.deps.log.warn('an MCP server failed to start', { server: name, code: connection.failure?.code });
      if (connection.failure?.code !== 'mcp_auth_required') return;
      const provider = connection.authProvider;
      if (!(provider instanceof McpOAuthProvider)) return;
      // Registered for a loopback port that is not ours this time: register again, then ask the person.
      if (provider.registeredElsewhere && !options.reregistered) {
        return provider.invalidateCredentials('client').then(() => {
          this.startNow(name, server, { reregistered: true });
          return server.starting;
        });
      }
      this.awaitSignIn(name, server);
    });
    inBackground(server.starting, (error) => this.deps.log.error('starting an MCP server failed unexpectedly', { server: name, error: String(error) }));
  }

  private async detach(name: string): Promise<void> {
    const server = this.servers.get(name);
    if (!server) return;
    this.servers.delete(name);
    if (server.restartTimer) clearTimeout(server.restartTimer);
    await server.starting.catch(() => undefined);
    await server.connection?.close();
    this.deps.store.sources.remove(mcpSourceID(name));
  }

  /** After a crash: start again with backoff, saying so; a server that keeps crashing waits for Restart. */
  private restartLater(name: string, server: Server): void {
    const connection = server.connection;
    if (!connection || this.servers.get(name) !== server) return;
    if (Date.now() - connection.connectedAt > STABLE_AFTER_MS) server.restarts = 0;
    const delay = RESTART_DELAYS_MS[server.restarts];
    if (delay === undefined) {
      connection.failure = { code: 'mcp_exited', message: `${connection.failure?.message ?? `The MCP server ${name} stopped.`} It crashed ${RESTART_DELAYS_MS.length + 1} times in a row, so Toolbelt stopped restarting it; fix it, then Restart.` };
      this.deps.log.error('an MCP server keeps crashing; no more restarts', { server: name });
      return;
    }
    server.restarts++;
    connection.failure = { code: 'mcp_exited', message: `${connection.failure?.message ?? `The MCP server ${name} stopped.`} Restarting in ${delay / 1000} s (attempt ${server.restarts} of ${RESTART_DELAYS_MS.length}).` };
    this.deps.log.warn('an MCP server stopped; restarting it', { server: name, attempt: server.restarts, delayMs: delay });
    server.restartTimer = setTimeout(() => {
      server.restartTimer = null;
      if (this.servers.get(name) !== server) return;
      // The same way as a first start, so a server that now asks to sign in is waited for.
      this.startNow(name, server);
    }, delay);
    server.restartTimer.unref();
  }

  /** The OAuth client of a remote server, over the loopback redirect; what it saved before is loaded first. */
  /** Where config placeholders are filled from: the person's secrets, and the environment Toolbelt runs in. */
  private readonly valueSources = { secret: (secret: string) => this.deps.secrets.resolve(secret), environment: (variable: string) => process.env[variable] };

  private async oauthProvider(name: string): Promise<OAuthClientProvider> {
    const config = this.require(name).config;
    const configured = 'url' in config ? config.oauth : undefined;
    const oauth = configured && 'clientId' in configured ? configured : undefined;
    const expand = (value: string | undefined) => (value === undefined ? Promise.resolve(undefined) : expandConfigValue(name, value, this.valueSources));
    if (oauth?.grant === 'client_credentials') return machineClient(name, oauth, { clientSecret: await expand(oauth.clientSecret), privateKey: await expand(oauth.privateKey) });
    const record = await this.oauthVault.get(name);
    const clientSecret = await expand(oauth?.clientSecret);
    const client = oauth ? { preRegistered: { client_id: oauth.clientId, ...(clientSecret ? { client_secret: clientSecret } : {}) } } : configured && 'clientMetadataUrl' in configured ? { metadataUrl: configured.clientMetadataUrl } : {};
    return new McpOAuthProvider(name, this.oauthVault, await this.deps.oauthCallbacks.start(registeredPort(record)), record, client);
  }

  /**
   * While the person signs in in their browser: the loopback redirect brings
   * the code, the SDK trades it for tokens (PKCE), and the server is
   * connected again, with no further step in Toolbelt.
   */
  private awaitSignIn(name: string, server: Server): void {
    const connection = server.connection!;
    const provider = connection.authProvider as McpOAuthProvider;
    const config = server.config as Extract<McpServerConfig, { url: string }>;
    const signedIn = (async () => {
      const { code, query } = await this.deps.oauthCallbacks.expect(provider.pendingState);
      // `iss`, where the server sent one, is checked against the issuer signed in with (RFC 9207, a mix-up defence).
      const iss = query.get('iss');
      const outcome = await auth(provider, { serverUrl: config.url, authorizationCode: code, ...(iss !== null ? { iss } : {}) });
      if (outcome !== 'AUTHORIZED') throw new Error('the server did not accept the sign-in');
      connection.signInsInARow++;
      if (this.servers.get(name) !== server) return;
      this.startNow(name, server);
      await server.starting;
    })();
    inBackground(
      signedIn.catch((error: unknown) => {
        if (this.servers.get(name) === server) connection.signInFailed(error);
      }),
      (error) => this.deps.log.error('finishing an MCP sign-in failed unexpectedly', { server: name, error: String(error) }),
    );
  }

  /** A server's elicitation: the person's answer from the question dialog, in the protocol's words. */
  private async askPerson(name: string, message: string, schema: Record<string, unknown>, signal: AbortSignal): Promise<ElicitResult> {
    const answer = await this.deps.questions.ask({ kind: 'mcp-server', server: name }, message, schema, signal);
    return answer.action === 'accept' ? { action: 'accept', content: answer.content as ElicitResult['content'] } : { action: answer.action };
  }

  private view(name: string): McpServerView {
    const server = this.require(name);
    const connection = server.connection;
    const state = server.config.disabled ? 'disabled' : (connection?.state ?? 'starting');
    return {
      name,
      config: server.config,
      state,
      bundleID: mcpBundleID(name),
      toolCount: Math.max(0, (connection?.tools.length ?? 0) - (server.leftOut?.length ?? 0)),
      ...(server.leftOut?.length ? { leftOut: server.leftOut.slice(0, 50) } : {}),
      ...appsOf(connection?.tools ?? []),
      ...(connection?.failure ? { error: connection.failure } : {}),
      ...(connection?.notice ? { notice: connection.notice } : {}),
      stderr: [...(connection?.stderr ?? [])],
      ...(connection?.serverLog.lines.length ? { log: [...connection.serverLog.lines] } : {}),
      ...(connection?.serverInfo ? { serverInfo: connection.serverInfo } : {}),
      ...(connection?.protocolVersion ? { protocolVersion: connection.protocolVersion } : {}),
      ...(connection?.failure?.code === 'mcp_auth_required' && connection.authProvider instanceof McpOAuthProvider && connection.authProvider.authorizationUrl ? { authorizationUrl: connection.authProvider.authorizationUrl.href } : {}),
    };
  }

  private require(name: string): Server {
    const server = this.servers.get(name);
    if (!server) throw new ToolbeltError('not_found', `There is no MCP server named ${name}.`);
    return server;
  }

  /** Placeholders in env, header, argument and folder values, resolved now (config-values.ts); a missing value fails the start, named. */
  private async resolveSecrets(name: string, config: McpServerConfig): Promise<ResolvedConfig> {
    const expand = (template: string) => expandConfigValue(name, template, this.valueSources);
    const each = async (values: Record<string, string> | undefined) => Object.fromEntries(await Promise.all(Object.entries(values ?? {}).map(async ([key, value]) => [key, await expand(value)] as const)));
    if (!('command' in config)) return { env: {}, headers: await each(config.headers) };
    return {
      env: await each(config.env),
      headers: {},
      args: await Promise.all((config.args ?? []).map(expand)),
      ...(config.cwd ? { cwd: await expand(config.cwd) } : {}),
    };
  }

  private async readFile(): Promise<Record<string, McpServerConfig>> {
    const read = await readJsonFile(this.file);
    if (!read.ok) {
      if (!read.missing) this.deps.log.warn('mcp.json cannot be used; no MCP server is started', { file: this.file, reason: read.reason });
      return {};
    }
    const servers = (read.value as { mcpServers?: unknown } | null)?.mcpServers;
    if (!servers || typeof servers !== 'object') return {};
    const valid: Record<string, McpServerConfig> = {};
    for (const [name, config] of Object.entries(servers)) {
      // A name written by hand that no list could show is left out too, never served as a 500.
      const shown = name.slice(0, 80);
      if (!this.validName(name)) this.deps.log.warn('an MCP server in mcp.json has a name Toolbelt cannot use; it is left out', { server: shown });
      else if (this.validConfig(config)) valid[name] = config as McpServerConfig;
      else this.deps.log.warn('an MCP server in mcp.json is invalid; it is left out', { server: name, reason: describeIssues(issuesFrom(this.validConfig.errors)) });
    }
    return valid;
  }

  private async writeFile(change: (servers: Record<string, McpServerConfig>) => Record<string, McpServerConfig>): Promise<void> {
    await withFileLock(this.deps.layout.lockTarget('mcp'), async () => {
      const next = change(await this.readFile());
      await writeFileAtomically(this.file, stringifyStable({ mcpServers: next }, ['mcpServers']), { within: this.deps.layout.root });
    });
  }
}

/** The tools of a server that have an MCP App, by the names people read: its panel lists them. */
function appsOf(tools: readonly Tool[]): { apps?: string[] } {
  const apps = tools.filter((tool) => appOf(tool).ui?.resourceUri).map((tool) => (tool.title ?? tool.name).slice(0, 200));
  return apps.length ? { apps: apps.slice(0, 50) } : {};
}

import type { Server, Transport } from '@modelcontextprotocol/server';
import { serveStdio, type StdioServerHandle } from '@modelcontextprotocol/server/stdio';
import { ToolbeltError } from '../../shared/errors.js';
import type { McpActivity, McpShareConnection, McpShareStatus } from '../../shared/schemas/mcp-share.js';
import type { EventBus } from '../api/event-bus.js';
import { inBackground } from '../common/background.js';
import type { Clock } from '../common/clock.js';
import type { Logger } from '../log.js';
import type { Cipher } from '../secrets/cipher.js';
import type { StoreLayout } from '../store/layout.js';
import type { ToolStore } from '../store/tool-store.js';
import type { Invoker } from '../tools/invoker.js';
import type { ToolResolver } from '../tools/resolver.js';
import { ActivityLog } from './activity.js';
import type { ListenerLimits } from '../common/listener-limits.js';
import { McpHttpEndpoint, MCP_PATH } from './http-endpoint.js';
import { ShareConfigFile, type ShareConfig } from './share-config.js';
import { listSharedTools, type SharedTool } from './shared-tools.js';
import { createToolServer, type Answered, type WaitingRound } from './tool-server.js';
import { WaitingCalls } from './call-rounds.js';
import { callStateSeal } from './request-state.js';
import { sharedDiscovery } from './shared-search.js';
import type { ToolDiscovery } from '../../shared/schemas/chat.js';
import type { SearchCatalogue } from '../tools/search/search-catalogue.js';

/** How another app starts Toolbelt's MCP server over stdio. */
export interface StdioCommand {
  command: string;
  args: string[];
  env?: Record<string, string>;
}

export interface McpShareDeps {
  layout: StoreLayout;
  cipher: Cipher;
  store: ToolStore;
  resolver: ToolResolver;
  invoker: Invoker;
  events: EventBus;
  clock: Clock;
  log: Logger;
  app: { name: string; version: string };
  /** Whether a window is there to approve calls (the browser host: an open event stream). */
  windowOpen: () => boolean;
  /** The command another app runs to reach these tools over stdio (for the snippet). */
  stdioCommand: StdioCommand;
  /** How often a call waiting for approval tells its client so (tests shorten it). */
  waitingNoticeMs?: number;
  /** How long a request to the MCP endpoint may take to arrive (tests shorten it). */
  listenerLimits?: ListenerLimits;
  /** The catalogue's full-text index, for clients that find the shared tools by search. */
  catalogue: SearchCatalogue;
}

const WAITING_NOTICE_MS = 10_000;

/**
 * Toolbelt as an MCP server: the tools of the bundles a person shares,
 * served over Streamable HTTP on 127.0.0.1 while the app runs (when
 * switched on), or over stdio by the `mcp` command.
 */
export class McpShare {
  private config: ShareConfig = { enabled: false, port: 0, sharedBundleIDs: [], discovery: 'auto' };
  private token = '';
  private endpoint: McpHttpEndpoint | null = null;
  private failure: { code: string; message: string } | null = null;
  private tools: SharedTool[] | null = null;
  /** The servers of stdio connections (one per connection, either revision), and the connections themselves. */
  private readonly stdioServers = new Set<Server>();
  private readonly stdioConnections = new Set<StdioServerHandle>();
  /** Calls that asked the person through their client, waiting for the answer: every instance's, since a 2026-07-28 answer comes on a new request. */
  private readonly waiting = new WaitingCalls<Answered, WaitingRound>();
  private readonly callState = callStateSeal();
  readonly activity: ActivityLog;
  private readonly file: ShareConfigFile;

  constructor(private readonly deps: McpShareDeps) {
    this.file = new ShareConfigFile(deps.layout, deps.cipher, deps.log);
    this.activity = new ActivityLog(deps.layout, deps.log, () => this.changed());
  }

  /** Reads the settings; with `listen`, starts the HTTP endpoint when it is switched on. */
  async open(options: { listen: boolean }): Promise<void> {
    this.config = await this.file.read();
    if (options.listen && this.config.enabled) await this.start();
  }

  async status(): Promise<McpShareStatus> {
    const running = this.endpoint !== null;
    await this.endpoint?.endIdleSessions();
    const shared = await this.sharedTools();
    const clients = this.clients();
    return {
      enabled: this.config.enabled,
      port: this.config.port,
      state: running ? 'running' : this.config.enabled && this.failure ? 'failed' : 'off',
      ...(this.failure && !running ? { failure: this.failure } : {}),
      url: this.url(),
      sharedBundleIDs: this.config.sharedBundleIDs,
      toolCount: shared.length,
      discovery: this.config.discovery,
      listing: sharedDiscovery(this.config.discovery, shared).mode,
      clients,
    };
  }

  async configure(change: { enabled?: boolean; port?: number; newToken?: true; discovery?: ToolDiscovery }): Promise<McpShareStatus> {
    const moved = change.port !== undefined && change.port !== this.config.port;
    const before = this.config.discovery;
    this.config = await this.file.update((config) => ({
      ...config,
      ...(change.enabled !== undefined ? { enabled: change.enabled } : {}),
      ...(change.port !== undefined ? { port: change.port } : {}),
      ...(change.discovery !== undefined ? { discovery: change.discovery } : {}),
    }));
    // Clients list again: all the tools, or tool_search.
    if (this.config.discovery !== before) this.toolsChanged();
    if (change.newToken) this.token = await this.file.newToken();
    // A new port or token ends the sessions made with the old ones.
    if (!this.config.enabled || moved || change.newToken) await this.stop();
    if (this.config.enabled && !this.endpoint) await this.start();
    this.changed();
    return this.status();
  }

  async shareBundle(bundleID: string, shared: boolean): Promise<McpShareStatus> {
    const bundle = this.deps.store.bundle(bundleID);
    if (!bundle) throw new ToolbeltError('not_found', `There is no bundle ${bundleID}.`);
    this.config = await this.file.update((config) => ({
      ...config,
      sharedBundleIDs: shared ? [...new Set([...config.sharedBundleIDs, bundleID])] : config.sharedBundleIDs.filter((id) => id !== bundleID),
    }));
    this.toolsChanged();
    return this.status();
  }

  async connection(): Promise<McpShareConnection> {
    const token = await this.currentToken();
    const url = this.url();
    const stdio = this.deps.stdioCommand;
    return {
      url,
      token,
      httpSnippet: JSON.stringify({ mcpServers: { toolbelt: { type: 'http', url, headers: { Authorization: `Bearer ${token}` } } } }, null, 2),
      stdioSnippet: JSON.stringify({ mcpServers: { toolbelt: stdio } }, null, 2),
    };
  }

  async recentActivity(limit: number): Promise<McpActivity[]> {
    return this.activity.recent(limit);
  }

  /**
   * The store changed (an edit, a switch, a file on disk): clients hear that the list changed: 2025 sessions and
   * connections as a notice, 2026-07-28 clients on their `subscriptions/listen` streams (on stdio the SDK moves the
   * notice onto them).
   */
  toolsChanged(): void {
    this.tools = null;
    for (const server of this.servers()) {
      if (!server.getClientVersion()) continue;
      inBackground(server.sendToolListChanged(), (error) => this.deps.log.debug('an MCP client could not be told the tool list changed', { error: String(error) }));
    }
    this.endpoint?.modern.notify.toolsChanged();
    this.changed();
  }

  /**
   * Serves the shared tools over one connection (stdio, or a test's in-memory pair) until it closes: the SDK reads
   * the revision from the client's first message and keeps one server for the connection.
   */
  serve(transport: Transport, hooks: { onError?: (error: Error) => void; onClosed?: () => void } = {}): StdioServerHandle {
    const report = hooks.onError ?? ((problem: Error) => this.deps.log.debug('an MCP connection reported', { error: problem.message }));
    const connection = serveStdio(
      ({ era }) => {
        const server = this.newServer(era);
        this.stdioServers.add(server);
        server.onclose = () => {
          this.stdioServers.delete(server);
          this.changed();
        };
        return server;
      },
      { transport, onerror: report },
    );
    this.stdioConnections.add(connection);
    // The SDK's entry has just taken the transport's close; the connection is forgotten after it has run.
    const closedBySdk = transport.onclose;
    transport.onclose = () => {
      closedBySdk?.();
      this.stdioConnections.delete(connection);
      hooks.onClosed?.();
    };
    return connection;
  }

  async close(): Promise<void> {
    await this.stop();
    await Promise.all([...this.stdioConnections].map((connection) => connection.close().catch(() => undefined)));
    this.waiting.endAll();
    await this.activity.flush();
  }

  private async sharedTools(): Promise<SharedTool[]> {
    const { sharedBundleIDs } = await this.file.current();
    if (sharedBundleIDs.join() !== this.config.sharedBundleIDs.join()) {
      // Changed by another process: this one's clients hear it too.
      this.config = { ...this.config, sharedBundleIDs };
      this.toolsChanged();
    }
    this.tools ??= listSharedTools(this.deps.store, this.deps.resolver, new Set(sharedBundleIDs));
    return this.tools;
  }

  /**
   * The clients with a session, by the name they gave: `open` while a call or an event stream is open (a client of
   * stdio, while its process runs), else when its last request came. A client that left without ending its session
   * is quiet, not connected.
   */
  private clients(): McpShareStatus['clients'] {
    const now = this.deps.clock.now().toISOString();
    const named = (server: Server) => {
      const info = server.getClientVersion();
      return info ? (info.title ?? info.name).slice(0, 200) : null;
    };
    const viaHttp = [...(this.endpoint?.sessions.values() ?? [])].flatMap((session) => {
      const name = named(session.server);
      return name ? [{ name, open: session.inFlight > 0, lastSeenAt: new Date(session.lastSeen).toISOString() }] : [];
    });
    const viaStdio = [...this.stdioServers].flatMap((server) => {
      const name = named(server);
      return name ? [{ name, open: true, lastSeenAt: now }] : [];
    });
    return [...viaHttp, ...viaStdio];
  }

  private servers(): Server[] {
    return [...[...(this.endpoint?.sessions.values() ?? [])].map((session) => session.server), ...this.stdioServers];
  }

  private newServer(era: 'legacy' | 'modern'): Server {
    return createToolServer({
      app: this.deps.app,
      era,
      waiting: this.waiting,
      callState: this.callState,
      sharedTools: () => this.sharedTools(),
      invoker: this.deps.invoker,
      windowOpen: this.deps.windowOpen,
      activity: this.activity,
      clock: this.deps.clock,
      log: this.deps.log,
      waitingNoticeMs: this.deps.waitingNoticeMs ?? WAITING_NOTICE_MS,
      discovery: async () => (await this.file.current()).discovery,
      catalogue: this.deps.catalogue,
    });
  }

  private url(): string {
    return `http://127.0.0.1:${this.config.port}${MCP_PATH}`;
  }

  private async currentToken(): Promise<string> {
    if (!this.token) this.token = await this.file.token();
    return this.token;
  }

  private async start(): Promise<void> {
    await this.currentToken();
    const endpoint = new McpHttpEndpoint({
      port: this.config.port,
      token: () => this.token,
      newServer: (era) => this.newServer(era),
      sessionsChanged: () => this.changed(),
      now: () => this.deps.clock.now().getTime(),
      sessionEvicted: (client, why) => this.activity.sessionEnded(client, this.deps.clock.now(), why),
      ...(this.deps.listenerLimits ? { limits: this.deps.listenerLimits } : {}),
      log: this.deps.log,
    });
    try {
      await endpoint.listen();
      this.endpoint = endpoint;
      this.failure = null;
      this.deps.log.info('MCP server listening', { port: this.config.port });
    } catch (error) {
      if (!(error instanceof ToolbeltError)) throw error;
      this.failure = { code: error.code, message: error.message };
      this.deps.log.warn('MCP server could not start', { port: this.config.port, error: error.message });
    }
  }

  private async stop(): Promise<void> {
    const endpoint = this.endpoint;
    this.endpoint = null;
    this.failure = null;
    await endpoint?.close();
  }

  private changed(): void {
    this.deps.events.publish({ type: 'mcpShare.changed' });
  }
}

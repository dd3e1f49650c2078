import {
  Client,
  ProtocolError,
  ProtocolErrorCode,
  SdkHttpError,
  SSEClientTransport,
  StreamableHTTPClientTransport,
  UnauthorizedError,
  type CallToolResult,
  type GetPromptResult,
  type OAuthClientProvider,
  type Progress,
  type Prompt,
  type ReadResourceResult,
  type Resource,
  type ResourceTemplateType as ResourceTemplate,
  type Tool,
  type Transport,
} from '@modelcontextprotocol/client';
import { getDefaultEnvironment, StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { ToolbeltError } from '../../shared/errors.js';
import type { RpcMessage } from '../../shared/schemas/invocation.js';
import type { McpServerConfig } from '../../shared/schemas/mcp.js';
import type { Logger } from '../log.js';
import { McpOAuthProvider } from './oauth-provider.js';
import { findCommand } from './shell-path.js';
import { MessageTap, recordCall } from './message-tap.js';
import { requestScopedFetch } from './request-scoped-fetch.js';
import { mcpFetch } from './mcp-fetch.js';
import { listPrompts, listResources } from './server-lists.js';
import { CLIENT_CAPABILITIES, CLIENT_INFO, negotiationFor } from './negotiation.js';
import { listAllTools } from './tool-listing.js';
import { hearListChanges } from './list-changes.js';
import { StderrTail } from './stderr-tail.js';
import { ServerQuestions, type AskPerson } from './server-questions.js';
import { modernTaskPath, mustRunAsTask, needsTasksExtension, TaskCalls, type ModernTaskPath, type TaskCallOptions, type TaskReference } from './task-call.js';
import { ServerLog } from './server-log.js';
import { inBackground } from '../common/background.js';
import { forwardAbort, NOT_CANCELLABLE } from '../common/signals.js';
import { CallNeedsSignIn, CONNECT_TIMEOUT_MS, MAX_SIGN_INS, scopeRefused, signInFailure, startFailure, ToolListUnanswered, type ConnectionFailure } from './start-failure.js';

export type { ConnectionFailure };

/** After a tools/list_changed that came while listing, how long before listing again. */
const RELIST_GAP_MS = 1_000;
/** The most of a server's instructions a model is given: enough for guidance, not a second system prompt. */
const MAX_INSTRUCTIONS = 4_000;

export type { AskPerson };

/** `idle`: not started yet; its tools are the last list it gave, and it starts when first used. */
export type ConnectionState = 'idle' | 'starting' | 'connected' | 'failed';

/** How one tool call runs. */
export interface CallOptions {
  signal: AbortSignal;
  timeoutMs: number;
  onProgress?: (progress: Progress) => void;
  meta?: Record<string, unknown>;
  /** A tool that runs as an MCP task (task-call.ts): the server made one; or the one to follow again. */
  onTaskStarted?: TaskCallOptions['onTaskStarted'];
  resume?: TaskReference;
}

/** A server's config with its placeholders filled in (secrets, the environment), as it starts. */
export interface ResolvedConfig {
  env: Record<string, string>;
  headers: Record<string, string>;
  args?: string[];
  cwd?: string;
}

/**
 * One MCP server, through the official SDK client: started (a process over
 * stdio, or a URL over Streamable HTTP with a fallback to HTTP+SSE), its tool
 * list kept current (tools/list_changed), its stderr tail kept for the
 * person, and why it failed said in a sentence.
 */
export class McpConnection {
  state: ConnectionState = 'starting';
  failure: ConnectionFailure | null = null;
  tools: Tool[] = [];
  serverInfo: { name: string; version: string } | null = null;
  /** The MCP revision this server speaks (2026-07-28, or a 2025 one), once it has connected; shown on its page. */
  protocolVersion: string | null = null;
  private readonly stderrTail = new StderrTail();
  /** Listing again after tools/list_changed: one listing at a time, and at most one more after it, a gap later. */
  private relisting: { again: boolean } | null = null;
  private client: Client | null = null;
  private closing = false;
  /** When the last start connected: a server that ran a while before it crashed earns fresh restarts. */
  connectedAt = 0;
  private resolved: ResolvedConfig = { env: {}, headers: {} };
  /** When none is running any more, the server's open questions are withdrawn (ServerQuestions). */
  private callsRunning = 0;
  /** The OAuth client of a remote server (null for stdio, or before the first start). */
  authProvider: OAuthClientProvider | null = null;
  private readonly questions: ServerQuestions;
  /** The tester's view of the messages, on the current transport. */
  private tap: MessageTap | null = null;
  /** The 2026 tasks extension's requests, when the server offers it. */
  private taskPath: ModernTaskPath | null = null;

  constructor(
    readonly name: string,
    private readonly config: McpServerConfig,
    /** Values of `${secret.NAME}` in env and headers, resolved each time it starts. */
    private readonly resolveSecrets: () => Promise<ResolvedConfig>,
    /** The PATH to find the command on and to give the server: the login shell's, then the app's. */
    private readonly searchPath: () => Promise<string>,
    /** `exited`: the server went away on its own (a crash), not because it was closed; `listed`: it gave its tool list. */
    private readonly events: { changed: () => void; exited: () => void; listed: (tools: Tool[]) => void; signInNeeded: () => void; offeringsChanged: () => void; log: Logger },
    private readonly options: {
      askPerson: AskPerson;
      connectTimeoutMs?: number;
      cachedTools?: Tool[];
      /** The revision it spoke when it last connected: a stdio server known to speak 2025 is not probed again (nor its crash restarts). */
      rememberedVersion?: string;
      /** Remote servers: the OAuth client that signs in when the server asks for it. */
      authProvider?: () => Promise<OAuthClientProvider>;
    },
  ) {
    this.questions = new ServerQuestions(options.askPerson);
    if (options.cachedTools) {
      this.state = 'idle';
      this.tools = options.cachedTools;
    }
  }

  async start(): Promise<void> {
    this.state = 'starting';
    this.failure = null;
    try {
      this.resolved = await this.resolveSecrets();
      if ('command' in this.config) {
        const searchPath = await this.searchPath();
        // Found here first, so a missing command is named with what to do, and the server gets the same PATH.
        if (!findCommand(this.config.command, searchPath)) throw Object.assign(new Error(`${this.config.command} not found`), { code: 'ENOENT' });
        this.resolved = { ...this.resolved, env: { PATH: searchPath, ...this.resolved.env } };
      }
      this.client = await this.connect();
      const version = this.client.getServerVersion();
      if (version) this.serverInfo = { name: version.name, version: version.version };
      this.protocolVersion = this.client.getNegotiatedProtocolVersion() ?? null;
      this.instructions = this.client.getInstructions()?.trim().slice(0, MAX_INSTRUCTIONS) || null;
      const client = this.client;
      hearListChanges(client, { name: this.name, log: this.events.log, stillWanted: () => this.client === client && !this.closing, toolsChanged: () => this.toolsChanged(), offeringsChanged: () => this.events.offeringsChanged() });
      await this.refreshTools().catch((error: unknown) => {
        throw new ToolListUnanswered(error);
      });
      this.state = 'connected';
      this.connectedAt = Date.now();
    } catch (error) {
      this.fail(this.limitSignIns(startFailure(error, { name: this.name, config: this.config, signingIn: this.signingIn, stderr: this.stderr, connectTimeoutMs: this.options.connectTimeoutMs ?? CONNECT_TIMEOUT_MS })));
      await this.client?.close().catch(() => undefined);
      this.client = null;
    }
    this.events.changed();
  }

  /** The JSON-RPC messages of one call of `toolName` made by `work`, cut to what a person reads. */
  recording<T>(toolName: string, work: () => Promise<T>): Promise<{ outcome: PromiseSettledResult<T>; messages: RpcMessage[] }> {
    return recordCall(this.tap, toolName, work);
  }

  /**
   * One tool call. A remote server that has forgotten its session (it
   * restarted: 404 as the spec says, or 400 "no valid session" as some send)
   * gets one new session and the call once more; the server's panel says so.
   */
  async callTool(name: string, args: Record<string, unknown>, options: CallOptions): Promise<CallToolResult> {
    try {
      const result = await this.callOnce(name, args, options);
      this.signInsInARow = 0;
      return result;
    } catch (error) {
      if (error instanceof UnauthorizedError || (error instanceof SdkHttpError && error.status === 403 && /upscoping/.test(error.message))) throw this.signInAgain();
      if (!this.sessionGone(error) || options.signal.aborted) throw error;
      await this.renewSession();
      return this.callOnce(name, args, options);
    }
  }

  /** What the server logged lately (notifications/message), for its panel. */
  readonly serverLog = new ServerLog();

  /** What the server tells a model about its tools (the handshake's `instructions`), cut to MAX_INSTRUCTIONS. */
  instructions: string | null = null;

  /** Sign-ins finished since a call last went through (servers.ts counts them); see MAX_SIGN_INS. */
  signInsInARow = 0;

  private get signingIn(): boolean {
    return this.authProvider instanceof McpOAuthProvider && Boolean(this.authProvider.authorizationUrl);
  }

  private limitSignIns(failure: ConnectionFailure): ConnectionFailure {
    return failure.code === 'mcp_auth_required' && this.signInsInARow >= MAX_SIGN_INS ? scopeRefused(this.name, this.signInsInARow) : failure;
  }

  /**
   * A call the server refused for want of access (403 insufficient_scope:
   * the SDK has already asked for a sign-in with the wider scope, or found
   * the server refusing again): the server waits for the person's sign-in,
   * as at a first start, and the call says so.
   */
  private signInAgain(): CallNeedsSignIn {
    const failure = this.limitSignIns(
      this.signingIn
        ? { code: 'mcp_auth_required', message: `The MCP server ${this.name} asks you to sign in again, allowing more, for this call. Select Sign in on the server in Tools (its page opens in your browser), then run the call again.` }
        : scopeRefused(this.name, this.signInsInARow),
    );
    const client = this.client;
    this.client = null;
    this.fail(failure);
    inBackground(client?.close() ?? Promise.resolve(), (error) => this.events.log.warn('closing an MCP session for a new sign-in failed', { server: this.name, error: String(error) }));
    this.events.changed();
    if (failure.code === 'mcp_auth_required') this.events.signInNeeded();
    return new CallNeedsSignIn(failure.code === 'mcp_auth_required' ? 'sign_in_required' : 'scope_refused', failure.message);
  }

  /** What a person reads in the server's panel about what happened lately (a new session), or null. */
  notice: string | null = null;
  private renewing: Promise<void> | null = null;

  private sessionGone(error: unknown): boolean {
    if ('command' in this.config || !(error instanceof SdkHttpError)) return false;
    return error.status === 404 || (error.status === 400 && /session/i.test(error.message));
  }

  /** A new session in place of one the server forgot; calls that found it gone together share one. */
  private renewSession(): Promise<void> {
    this.renewing ??= (async () => {
      await this.client?.close().catch(() => undefined);
      this.client = null;
      await this.start();
      if (this.state !== 'connected') throw new ToolbeltError('mcp_error', `${this.name} forgot its session (it may have restarted), and a new one could not be started: ${this.failure?.message ?? 'it did not answer'}`);
      this.notice = `${this.name} had forgotten its session (it may have restarted); Toolbelt started a new one at ${new Date().toLocaleTimeString('en-GB')}.`;
      this.events.log.warn('an MCP server forgot its session; a new one was started', { server: this.name });
      this.events.changed();
    })().finally(() => {
      this.renewing = null;
    });
    return this.renewing;
  }

  private async callOnce(name: string, args: Record<string, unknown>, options: CallOptions): Promise<CallToolResult> {
    const client = this.connected();
    this.callsRunning++;
    // The SDK never removes the listener it puts on the signal it is given: it gets one of its own per call,
    // so a long-lived signal (a chat run's, or one shared by calls nobody can cancel) does not collect them.
    // A call nobody can cancel needs no signal at all.
    const own = options.signal === NOT_CANCELLABLE ? null : new AbortController();
    const unfollow = own ? forwardAbort(options.signal, own) : () => {};
    try {
      // The tool's definition as listed: the SDK mirrors the headers it declares (2026) and checks its output by it.
      const toolDefinition = this.tools.find((tool) => tool.name === name);
      const taskPath = this.taskPath;
      const asTask = () => {
        const { onProgress, onTaskStarted, meta, timeoutMs, resume } = options;
        const tasks = TaskCalls.of(client, this.name, () => this.tools, this.events.log, taskPath);
        const follow = { signal: own?.signal ?? NOT_CANCELLABLE, timeoutMs, ...{ onProgress, onTaskStarted, meta } };
        return resume ? tasks.resume(resume, follow) : tasks.call(name, args, follow);
      };
      if (options.resume || mustRunAsTask(client, toolDefinition) || taskPath?.taskOnly.has(name)) return await asTask();
      try {
        return await client.callTool({ name, arguments: args, ...(options.meta ? { _meta: options.meta } : {}) }, {
          ...(toolDefinition ? { toolDefinition } : {}),
          ...(own ? { signal: own.signal } : {}),
          timeout: options.timeoutMs,
          resetTimeoutOnProgress: true,
          ...(options.onProgress ? { onprogress: options.onProgress } : {}),
        });
      } catch (error) {
        if (!taskPath || !needsTasksExtension(error)) throw error;
        taskPath.taskOnly.add(name);
        return await asTask();
      }
    } finally {
      unfollow();
      if (--this.callsRunning === 0) this.questions.withdraw();
    }
  }

  /** Resources and templates, every page; none when the server offers no resources. */
  resources(): Promise<{ resources: Resource[]; templates: ResourceTemplate[] }> {
    return listResources(this.connected(), (what) => this.listCut(what));
  }

  private listCut(what: string): (why: string) => void {
    return (why) => this.events.log.warn(`an MCP server’s list of ${what} was cut off`, { server: this.name, why });
  }

  async readResource(uri: string): Promise<ReadResourceResult['contents']> {
    return (await this.connected().readResource({ uri })).contents;
  }

  prompts(): Promise<Prompt[]> {
    return listPrompts(this.connected(), (what) => this.listCut(what));
  }

  async getPrompt(name: string, args: Record<string, string>): Promise<GetPromptResult> {
    return this.connected().getPrompt({ name, arguments: args });
  }

  /** Calls following a task stop following it when cancelled, and do not cancel it (the app is closing). */
  leaveTasks(): void {
    if (this.client) TaskCalls.leaveOn(this.client);
  }

  async close(): Promise<void> {
    this.closing = true;
    this.questions.withdraw();
    await this.client?.close().catch(() => undefined);
    this.client = null;
  }

  /** The last lines the server wrote to stderr (stdio servers). */
  get stderr(): readonly string[] {
    return this.stderrTail.lines;
  }

  /**
   * Lists the tools, within one deadline for every page: a server that answers the handshake but never its
   * list fails the start then, not at the SDK's minute.
   */
  private async refreshTools(): Promise<void> {
    const timeoutMs = this.options.connectTimeoutMs ?? CONNECT_TIMEOUT_MS;
    this.tools = await listAllTools(this.client!, {
      signal: AbortSignal.timeout(timeoutMs),
      timeoutMs,
      onCut: (why) => this.events.log.warn('an MCP server’s tool list was cut off', { server: this.name, why }),
    });
    this.events.listed(this.tools);
    this.events.changed();
  }

  /**
   * tools/list_changed: lists again, coalesced. A server that sends the notice thousands of times a second gets one
   * listing at a time and one more after it, RELIST_GAP_MS later, however many notices came meanwhile.
   */
  private toolsChanged(): void {
    if (this.relisting) {
      this.relisting.again = true;
      return;
    }
    const relisting = (this.relisting = { again: false });
    const work = async () => {
      try {
        do {
          relisting.again = false;
          await this.refreshTools();
          if (relisting.again) await new Promise<void>((resolve) => setTimeout(resolve, RELIST_GAP_MS).unref());
        } while (relisting.again && !this.closing && this.client);
      } finally {
        this.relisting = null;
      }
    };
    inBackground(work(), (error) => this.events.log.warn('an MCP server’s tool list could not be read again', { server: this.name, error: String(error) }));
  }

  /** The SDK client under the connection, once connected: what the MCP bench measures Toolbelt's calls against. */
  sdkClient(): Client {
    return this.connected();
  }

  private connected(): Client {
    if (!this.client || this.state !== 'connected') throw new ToolbeltError('unavailable', this.failure?.message ?? `The MCP server ${this.name} is not connected.`);
    return this.client;
  }

  private async connect(): Promise<Client> {
    if ('command' in this.config) return this.attach(this.stdioTransport(this.config));
    const url = new URL(this.config.url);
    this.authProvider = (await this.options.authProvider?.()) ?? null;
    const requestInit = { headers: this.resolved.headers };
    const settings = { requestInit, fetch: requestScopedFetch(mcpFetch), ...(this.authProvider ? { authProvider: this.authProvider } : {}) };
    if (this.config.type === 'sse') return this.attach(new SSEClientTransport(url, settings));
    try {
      return await this.attach(new StreamableHTTPClientTransport(url, settings));
    } catch (error) {
      // Servers of the older protocol answer the Streamable HTTP handshake with a 4xx.
      const status = error instanceof SdkHttpError ? error.status : undefined;
      if (this.config.type === 'streamable-http' || status === undefined || status < 400 || status >= 500) throw error;
      return this.attach(new SSEClientTransport(url, settings));
    }
  }

  private stdioTransport(config: Extract<McpServerConfig, { command: string }>): Transport {
    const transport = new StdioClientTransport({
      command: config.command,
      args: this.resolved.args ?? config.args ?? [],
      env: { ...getDefaultEnvironment(), ...this.resolved.env },
      ...((this.resolved.cwd ?? config.cwd) ? { cwd: this.resolved.cwd ?? config.cwd } : {}),
      stderr: 'pipe',
    });
    transport.stderr?.on('data', (chunk: Buffer) => this.stderrTail.write(chunk.toString('utf8')));
    return transport;
  }

  private async attach(transport: Transport): Promise<Client> {
    const client = new Client(CLIENT_INFO, {
      capabilities: CLIENT_CAPABILITIES,
      versionNegotiation: negotiationFor(transport, this.protocolVersion ?? this.options.rememberedVersion, this.options.connectTimeoutMs ?? CONNECT_TIMEOUT_MS),
    });
    client.setNotificationHandler('notifications/message', (notification) => this.serverLog.note(notification.params, new Date()));
    client.setRequestHandler('elicitation/create', async (request, context) => {
      const params = request.params;
      if (params.mode === 'url') throw new ProtocolError(ProtocolErrorCode.InvalidParams, 'Toolbelt answers form questions only, not URL elicitation.');
      return this.questions.ask(params.message, params.requestedSchema, context.mcpReq.signal);
    });
    // Sampling (a server borrowing the person's model) is deprecated and never offered; say so rather than "Method not found".
    client.fallbackRequestHandler = async (request) => {
      const what = request.method === 'sampling/createMessage' ? 'sampling (sampling/createMessage): it does not let servers use the person’s model' : `${request.method}`;
      throw new ProtocolError(ProtocolErrorCode.MethodNotFound, `Toolbelt does not support ${what}.`);
    };
    client.onclose = () => {
      // Only a connected server can crash; a start that fails is reported by start() (and is not restarted in a loop).
      if (this.closing || this.state !== 'connected') return;
      this.fail({
        code: 'mcp_exited',
        message: `The MCP server ${this.name} stopped${this.stderr.length ? `; its last words: ${this.stderr.at(-1)}` : ''}.`,
      });
      this.events.changed();
      this.events.exited();
    };
    await client.connect(transport, { timeout: this.options.connectTimeoutMs ?? CONNECT_TIMEOUT_MS });
    const ask = (params: Record<string, unknown>, signal: AbortSignal) => this.questions.askParams(params, signal);
    this.taskPath = modernTaskPath(client, transport, { clientInfo: CLIENT_INFO, clientCapabilities: CLIENT_CAPABILITIES }, ask, this.options.connectTimeoutMs ?? CONNECT_TIMEOUT_MS);
    this.tap = new MessageTap(transport);
    return client;
  }

  /** A sign-in that did not finish: said like a failed start, so Restart (or Sign in again) is the way on. */
  signInFailed(error: unknown): void {
    this.fail(signInFailure(this.name, error));
    this.events.changed();
  }

  private fail(failure: ConnectionFailure): void {
    this.state = 'failed';
    this.failure = failure;
    this.tools = [];
  }

}

import { randomUUID } from 'node:crypto';
import { type IncomingMessage, type Server as HttpServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { toWebRequest } from '@modelcontextprotocol/node';
import { createMcpHandler, isInitializeRequest, isLegacyRequest, ProtocolErrorCode, WebStandardStreamableHTTPServerTransport, type McpHttpHandler, type Server } from '@modelcontextprotocol/server';
import { ToolbeltError } from '../../shared/errors.js';
import type { Logger } from '../log.js';
import { createLimitedServer, type ListenerLimits } from '../common/listener-limits.js';
import { readJsonBody } from '../common/request-body.js';
import { checkOrigin, checkToken, ownAuthorities } from '../common/listener-checks.js';
import { SessionEventStore } from './event-store.js';
import { servedFromWeb, type NodeMcpHandler } from './web-adapter.js';

/** How long a client whose stream closed waits before it reconnects (the SSE retry field). */
const RECONNECT_AFTER_MS = 2_000;

export const MCP_PATH = '/mcp';
const MAX_BODY_BYTES = 4 * 1024 * 1024;
/** Sessions kept at once; each holds an SDK server and transport. */
export const MAX_SESSIONS = 64;
/**
 * A session with nothing open (no call, no event stream) and no request for this long is ended: its client has
 * almost surely left without saying so, and one that comes back is told the session ended (404) and starts a new
 * one, as the spec has clients do.
 */
export const IDLE_SESSION_END_MS = 60 * 60_000;

/** Why Toolbelt ended a client's session: to make room at MAX_SESSIONS, or after IDLE_SESSION_END_MS of silence. */
export type SessionEndReason = 'full' | 'idle';

export interface Session {
  server: Server;
  /** Answers the session's requests: its transport, written back to Node by the SDK's adapter. */
  serve: NodeMcpHandler;
  /** When a request last came or ended (ms since the epoch, by the core's clock): at the limit, the session unused longest makes room. */
  lastSeen: number;
  /** Requests after the handshake: a session that never made one is the first to make room. */
  requests: number;
  /** Requests (a call, an open event stream) not answered yet: such a session is never ended to make room. */
  inFlight: number;
}

export interface EndpointDeps {
  port: number;
  token: () => string;
  /** A server for one 2025 session, or for one 2026-07-28 request. */
  newServer: (era: 'legacy' | 'modern') => Server;
  sessionsChanged: () => void;
  /** A session ended to make room for a new one: the activity view says whose. */
  sessionEvicted: (client: string, why: SessionEndReason) => void;
  log: Logger;
  /** The core's clock, in ms since the epoch (tests move it by hand). */
  now: () => number;
  /** How long a request may take to arrive (tests shorten it). */
  limits?: ListenerLimits;
}

/** Refuses a request before it reaches the SDK; with the request's own id when its body was read (null before). */
function refuse(response: ServerResponse, status: number, message: string, answering: { code?: number; id?: unknown } = {}): void {
  if (response.headersSent) return;
  response.writeHead(status, { 'Content-Type': 'application/json', 'Cache-Control': 'no-store' });
  response.end(JSON.stringify({ jsonrpc: '2.0', error: { code: answering.code ?? -32000, message }, id: answering.id ?? null }));
}

/** The id of a JSON-RPC request body, when it has one a reply may carry. */
/** The per-request envelope claim of a 2026-07-28 message (its `_meta` names the revision). */
const ENVELOPE_CLAIM = 'io.modelcontextprotocol/protocolVersion';
const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * A 2025 request for certain, told without building a web Request (which, with the SDK's own classification, cost
 * more than the rest of a session's call: npm run bench -- mcp-server): a POST of JSON-RPC messages none of which
 * carries the envelope claim, under no MCP-Protocol-Version header or a 2024/2025 one. Whatever else is asked of
 * the SDK (`isLegacyRequest`), which owns the answers to modern and malformed requests.
 */
function plainlyLegacy(request: IncomingMessage, body: unknown): boolean {
  const version = request.headers['mcp-protocol-version'];
  if (version !== undefined && !(typeof version === 'string' && /^202[45]-/.test(version))) return false;
  const messages = Array.isArray(body) ? body : [body];
  return messages.length > 0 && messages.every((message) => isRecord(message) && !(isRecord(message.params) && isRecord(message.params._meta) && ENVELOPE_CLAIM in message.params._meta));
}

function requestID(body: unknown): string | number | undefined {
  const id = body && typeof body === 'object' && !Array.isArray(body) ? (body as { id?: unknown }).id : undefined;
  return typeof id === 'string' || typeof id === 'number' ? id : undefined;
}

/** How long an idle connection of an MCP client is kept open. */
const KEEP_ALIVE_MS = 65_000;

/**
 * Toolbelt's MCP server over Streamable HTTP on 127.0.0.1, behind the browser
 * host's Host and Origin checks and a bearer token of its own. Both revisions
 * on the one endpoint, told apart as the SDK tells them (`isLegacyRequest`):
 * 2026-07-28 requests, each on its own, go to the SDK's per-request handler
 * (`createMcpHandler`, its 2025 leg refused so nothing reaches it twice);
 * 2025 clients get a session each, with one SDK transport and server, since
 * they rely on it for list changes and resumable streams.
 */
export class McpHttpEndpoint {
  readonly sessions = new Map<string, Session>();
  /** The 2026-07-28 side: its `notify` tells open `subscriptions/listen` streams of list changes. */
  readonly modern: McpHttpHandler;
  private readonly serveModern: NodeMcpHandler;
  private http: HttpServer | null = null;
  /** Exactly this listener's own name and port (127.0.0.1 or localhost): a page on another port or another name is not it. */
  private answersTo: (authority: string) => boolean = () => false;

  constructor(private readonly deps: EndpointDeps) {
    const reportError = (error: Error) => deps.log.debug('a 2026-07-28 MCP request was refused or failed', { error: error.message });
    this.modern = createMcpHandler(() => deps.newServer('modern'), { legacy: 'reject', onerror: reportError, maxRequestBodySize: MAX_BODY_BYTES });
    this.serveModern = servedFromWeb((request, options) => this.modern.fetch(request, options), { followsClient: true });
  }

  /** Listens, or throws `port_in_use` / `unavailable` with what to do. */
  async listen(): Promise<void> {
    const http = createLimitedServer(this.deps.limits, (request, response) => {
      this.handle(request, response).catch((error: unknown) => {
        this.deps.log.warn('an MCP request failed', { error: String(error) });
        // Our own refusals (too large, not JSON) say what and carry their status; anything else is not repeated to the client.
        if (error instanceof ToolbeltError) refuse(response, error.httpStatus, error.message);
        else refuse(response, 400, 'Toolbelt could not handle this MCP request. The details are in its log.');
      });
    });
    // Node closes an idle kept-alive connection after 5 s; a client still parsing a long answer then found its next
    // request on a closed socket ("other side closed"). A minute is more than any client needs between requests.
    http.keepAliveTimeout = KEEP_ALIVE_MS;
    await new Promise<void>((resolve, reject) => {
      http.once('error', reject);
      http.listen(this.deps.port, '127.0.0.1', () => {
        http.off('error', reject);
        resolve();
      });
    }).catch((error: NodeJS.ErrnoException) => {
      http.close();
      if (error.code === 'EADDRINUSE') throw new ToolbeltError('port_in_use', `Port ${this.deps.port} is taken by another program. Choose another port for the MCP server.`);
      throw new ToolbeltError('unavailable', `The MCP server could not listen on port ${this.deps.port}: ${error.message}`);
    });
    this.http = http;
    this.answersTo = ownAuthorities((http.address() as AddressInfo).port);
  }

  async close(): Promise<void> {
    await this.modern.close();
    const sessions = [...this.sessions.values()];
    this.sessions.clear();
    await Promise.all(sessions.map((session) => session.server.close().catch(() => undefined)));
    const http = this.http;
    this.http = null;
    if (!http) return;
    http.closeAllConnections();
    await new Promise<void>((resolve) => http.close(() => resolve()));
  }

  /** Ends the sessions whose clients have left without saying so (IDLE_SESSION_END_MS), saying whose in the activity. */
  async endIdleSessions(): Promise<void> {
    const before = this.deps.now() - IDLE_SESSION_END_MS;
    const idle = [...this.sessions].filter(([, session]) => session.inFlight === 0 && session.lastSeen < before);
    for (const [id, session] of idle) {
      this.sessions.delete(id);
      this.deps.sessionEvicted(session.server.getClientVersion()?.name ?? 'An MCP client', 'idle');
      await session.server.close().catch(() => undefined);
    }
    if (idle.length > 0) this.deps.sessionsChanged();
  }

  /**
   * Makes room for a new session, or says there is none. Sessions that never made a request after their handshake
   * go first (a flood of `initialize`s cannot push out a client at work), then the one unused longest; a session
   * with a request in flight is never ended.
   */
  private async makeRoom(): Promise<boolean> {
    const idle = [...this.sessions].filter(([, session]) => session.inFlight === 0);
    if (idle.length === 0) return false;
    const [id, ended] = idle.reduce((best, entry) => {
      const [, a] = best;
      const [, b] = entry;
      if ((a.requests === 0) !== (b.requests === 0)) return b.requests === 0 ? entry : best;
      return b.lastSeen < a.lastSeen ? entry : best;
    });
    this.sessions.delete(id);
    this.deps.sessionEvicted(ended.server.getClientVersion()?.name ?? 'An MCP client', 'full');
    await ended.server.close().catch(() => undefined);
    return true;
  }

  private async handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    const place = checkOrigin(request, this.answersTo);
    if (!place.ok) return refuse(response, place.status, place.message);
    const token = checkToken(request, this.deps.token(), 'Missing or wrong token. Copy the connection settings again from Toolbelt (Settings → MCP server).');
    if (!token.ok) return refuse(response, token.status, token.message);
    if (url.pathname !== MCP_PATH) return refuse(response, 404, `Toolbelt's MCP server answers at ${MCP_PATH}.`);

    const body = request.method === 'POST' ? await readJsonBody(request, MAX_BODY_BYTES) : undefined;
    const sessionID = request.headers['mcp-session-id'];
    if (!plainlyLegacy(request, body) && !(await isLegacyRequest(await toWebRequest(request, body ?? null), body))) {
      // A 2026-07-28 request stands alone: a session id on it is a client mixing the two revisions up.
      if (sessionID !== undefined) {
        return refuse(response, 400, 'A 2026-07-28 request carries no Mcp-Session-Id: send it without one, or keep to 2025 requests in that session.', { code: ProtocolErrorCode.InvalidRequest, id: requestID(body) });
      }
      return this.serveModern(request, response, body);
    }
    if (typeof sessionID === 'string') {
      const session = this.sessions.get(sessionID);
      if (!session) return refuse(response, 404, 'This session has ended (Toolbelt restarted or the server was switched off). Connect again.');
      session.lastSeen = this.deps.now();
      session.requests++;
      session.inFlight++;
      // Not announced (a flood of calls would flood the window): the status, read again, says since when it is quiet.
      response.once('close', () => {
        session.inFlight--;
        session.lastSeen = this.deps.now();
      });
      return session.serve(request, response, body);
    }
    if (request.method !== 'POST' || !isInitializeRequest(body)) {
      return refuse(response, 400, 'Start a session with an initialize request first, or send 2026-07-28 requests (with their _meta and MCP-Protocol-Version).', { id: requestID(body) });
    }
    // Clients that quit without ending their session leave it here: one that is not working makes room.
    await this.endIdleSessions();
    if (this.sessions.size >= MAX_SESSIONS && !(await this.makeRoom())) {
      return refuse(response, 503, `Toolbelt's MCP server has ${MAX_SESSIONS} sessions, each with a request under way. Try again when one has finished.`);
    }

    const server = this.deps.newServer('legacy');
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      // Streams begin with a priming event, and a client that lost one gets what it missed (SEP-1699).
      eventStore: new SessionEventStore(),
      retryInterval: RECONNECT_AFTER_MS,
      onsessioninitialized: (id) => {
        this.sessions.set(id, { server, serve, lastSeen: this.deps.now(), requests: 0, inFlight: 0 });
        this.deps.sessionsChanged();
      },
    });
    transport.onclose = () => {
      if (transport.sessionId && this.sessions.delete(transport.sessionId)) this.deps.sessionsChanged();
    };
    const serve = servedFromWeb((webRequest, options) => transport.handleRequest(webRequest, options));
    server.oninitialized = () => this.deps.sessionsChanged();
    await server.connect(transport);
    await serve(request, response, body);
  }
}

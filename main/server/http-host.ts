import { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { API_CSP, rendererCsp } from '../../shared/csp.js';
import { ToolbeltError } from '../../shared/errors.js';
import { methodHasBody, type OperationDefinition } from '../../shared/operation.js';
import type { Core } from '../core/create-core.js';
import type { Logger } from '../log.js';
import { createLimitedServer, type ListenerLimits } from '../common/listener-limits.js';
import { openEventStream } from './event-stream.js';
import { coerceQuery } from './query-params.js';
import { readJsonBody } from '../common/request-body.js';
import { createRouter } from './routes.js';
import { applyCommonHeaders, checkOrigin, checkToken, ownAuthorities } from '../common/listener-checks.js';
import { resolveAsset, serveFile } from './static-files.js';

export const EVENTS_PATH = '/api/events';
export const LOOPBACK = '127.0.0.1';

export interface HttpHostOptions {
  core: Core;
  token: string;
  /** 0 picks a free port. */
  port: number;
  /** The built renderer (out/renderer); null serves the API only. */
  rendererDir: string | null;
  log: Logger;
  keepAliveMs?: number;
  /** The origin MCP Apps run on (main/server/app-sandbox.ts): the one frame the window may hold. */
  appSandboxOrigin?: string;
  /** How long a request may take to arrive (tests shorten it). */
  limits?: ListenerLimits;
}

export interface HttpHost {
  port: number;
  /** The URL to open: it carries the token in the fragment, which browsers never send. */
  url: string;
  close(): Promise<void>;
}

/** The browser host: the core's operation table over HTTP on 127.0.0.1 only. */
export async function startHttpHost(options: HttpHostOptions): Promise<HttpHost> {
  const { core, token, log } = options;
  const router = createRouter();
  const openStreams = new Set<() => void>();
  let authorities: (authority: string) => boolean = () => false;

  const server = createLimitedServer(options.limits, (request, response) => {
    handle(request, response).catch((error: unknown) => {
      log.error('request failed', { url: request.url, error: String(error) });
      if (!response.headersSent) sendError(response, new ToolbeltError('internal', 'The request failed unexpectedly.'));
      else response.destroy();
    });
  });

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const url = new URL(request.url ?? '/', `http://${LOOPBACK}`);
    const isApi = url.pathname === '/api' || url.pathname.startsWith('/api/');
    applyCommonHeaders(response, isApi ? API_CSP : rendererCsp(options.appSandboxOrigin));

    const originVerdict = checkOrigin(request, authorities);
    if (!originVerdict.ok) return sendError(response, new ToolbeltError(originVerdict.code, originVerdict.message));
    if (!isApi) return serveRenderer(request, response, url.pathname);

    response.setHeader('Cache-Control', 'no-store');
    if (hasDotSegment(request.url ?? '/')) {
      // URL parsing would quietly resolve them to another resource.
      return sendError(response, new ToolbeltError('invalid_params', 'Path segments "." and ".." are not allowed; is a slug or version "." or ".."?'));
    }
    const tokenVerdict = checkToken(request, token);
    if (!tokenVerdict.ok) {
      response.setHeader('WWW-Authenticate', 'Bearer');
      return sendError(response, new ToolbeltError(tokenVerdict.code, tokenVerdict.message));
    }
    if (url.pathname === EVENTS_PATH && request.method === 'GET') {
      const close = openEventStream(response, core.events, options.keepAliveMs ?? 15_000);
      openStreams.add(close);
      response.on('close', () => openStreams.delete(close));
      return;
    }
    await handleOperation(request, response, url);
  }

  async function handleOperation(request: IncomingMessage, response: ServerResponse, url: URL): Promise<void> {
    const match = router.match(request.method ?? 'GET', url.pathname);
    if (match.kind === 'none') {
      return sendError(response, new ToolbeltError('not_found', `No API route ${request.method} ${url.pathname}.`));
    }
    if (match.kind === 'method_not_allowed') {
      response.setHeader('Allow', match.allowed.join(', '));
      return sendError(
        response,
        new ToolbeltError('method_not_allowed', `${request.method} is not allowed here; use ${match.allowed.join(' or ')}.`),
      );
    }
    const definition: OperationDefinition = core.dispatcher.definition(match.name);
    const aborted = new AbortController();
    response.on('close', () => {
      if (!response.writableFinished) aborted.abort();
    });
    try {
      const params = await buildParams(request, url, definition, match.pathParams);
      let created = false;
      const result = await core.dispatcher.call(match.name, params, {
        transport: 'http',
        signal: aborted.signal,
        markCreated: () => (created = true),
      });
      const status = created ? 201 : (definition.http.successStatus ?? 200);
      if (status === 204) {
        response.statusCode = 204;
        response.end();
        return;
      }
      sendJson(response, status, result);
    } catch (error) {
      sendError(response, error instanceof ToolbeltError ? error : new ToolbeltError('internal', 'The request failed unexpectedly.'));
      if (!(error instanceof ToolbeltError)) log.error('operation failed', { operation: match.name, error: String(error) });
    }
  }

  async function serveRenderer(request: IncomingMessage, response: ServerResponse, pathname: string): Promise<void> {
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      response.setHeader('Allow', 'GET, HEAD');
      return sendError(response, new ToolbeltError('method_not_allowed', 'Only GET and HEAD are served here.'));
    }
    const root = options.rendererDir;
    const file = root ? resolveAsset(root, pathname) : null;
    if (root && file && (await serveFile(response, file, request.method))) return;
    // Paths without an extension are screens of the single-page app.
    if (root && !/\.[a-z0-9]+$/i.test(pathname) && (await serveFile(response, `${root}/index.html`, request.method))) return;
    response.statusCode = 404;
    response.setHeader('Content-Type', 'text/plain; charset=utf-8');
    response.end(root ? 'Not found.\n' : 'This host serves the API only.\n');
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, LOOPBACK, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  authorities = ownAuthorities(port);

  return {
    port,
    url: `http://${LOOPBACK}:${port}/#token=${encodeURIComponent(token)}`,
    async close() {
      for (const close of openStreams) close();
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      // Requests still running get a moment to answer, then their sockets go.
      const force = setTimeout(() => server.closeAllConnections(), 1_000);
      await closed;
      clearTimeout(force);
    },
  };
}

async function buildParams(
  request: IncomingMessage,
  url: URL,
  definition: OperationDefinition,
  pathParams: Record<string, string>,
): Promise<unknown> {
  const { method, bodyParam, maxBodyBytes } = definition.http;
  if (!methodHasBody(method)) {
    return { ...coerceQuery(definition.params, url.searchParams), ...pathParams };
  }
  const body = await readJsonBody(request, maxBodyBytes);
  if (bodyParam) return { ...pathParams, [bodyParam]: body };
  if (body === undefined) return { ...pathParams };
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new ToolbeltError('invalid_params', 'The request body must be a JSON object.');
  }
  for (const [key, value] of Object.entries(pathParams)) {
    if (key in body && (body as Record<string, unknown>)[key] !== value) {
      throw new ToolbeltError('invalid_params', `"${key}" in the body does not match the URL.`, {
        issues: [{ path: `/${key}`, message: 'does not match the URL' }],
      });
    }
  }
  return { ...body, ...pathParams };
}

function hasDotSegment(rawUrl: string): boolean {
  const rawPath = rawUrl.split(/[?#]/, 1)[0]!;
  return rawPath.split('/').some((segment) => {
    const decoded = segment.replace(/%2e/gi, '.');
    return decoded === '.' || decoded === '..';
  });
}

function sendJson(response: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  response.statusCode = status;
  response.setHeader('Content-Type', 'application/json; charset=utf-8');
  response.setHeader('Content-Length', Buffer.byteLength(text));
  response.end(text);
}

function sendError(response: ServerResponse, error: ToolbeltError): void {
  sendJson(response, error.httpStatus, error.toBody());
}

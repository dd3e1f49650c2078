import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { Logger } from '../log.js';
import { createLimitedServer } from '../common/listener-limits.js';
import { allowAttribute, appCsp, permissionsObject, type AppCspDeclaration } from '../../shared/mcp/app-csp.js';
import { APP_DOCUMENT_MISSING } from '../../shared/mcp/app-relay.js';
import { createAppDocumentShelf, type AppDocumentShelf } from './app-documents.js';

const LOOPBACK = '127.0.0.1';
const PAGE = 'app-sandbox.html';
/** The windows that may embed an app: the browser host (a loopback port) and the desktop app (app://). */
const HOST_ORIGIN = /^(?:http:\/\/(?:127\.0\.0\.1|localhost):\d{1,5}|app:\/\/[a-z0-9.-]+)$/;
/** A declaration longer than this is not one: a URL carries it. */
const MAX_DECLARATION = 8_000;

export interface AppSandbox {
  /** The sandbox's own origin: never the window's. */
  origin: string;
  /** The documents it serves by digest: the core keeps each app document it reads here. */
  documents: AppDocumentShelf;
  close(): Promise<void>;
}

/** The inner frame as the relay page holds it: the app's own opaque origin, no way into the relay or the window. */
const INNER_SANDBOX = 'allow-scripts allow-forms';
/** What `/doc/<digest>` answers for a document the shelf does not hold: a page that says so (shared/mcp/app-relay.ts). */
const MISSING_SCRIPT = `parent.postMessage({jsonrpc:"2.0",method:"${APP_DOCUMENT_MISSING}"},"*")`;
const MISSING_PAGE = `<!doctype html><meta charset="utf-8"><title>MCP App</title><script>${MISSING_SCRIPT}</script>`;
const MISSING_POLICY = `default-src 'none'; script-src 'sha256-${createHash('sha256').update(MISSING_SCRIPT).digest('base64')}'; sandbox allow-scripts`;
/** The page that keeps the apps' process started (see `/warm` below): one empty frame as the apps' are, with nothing to run. */
const WARM_PAGE = '<!doctype html><meta charset="utf-8"><title>MCP Apps</title><iframe sandbox srcdoc=""></iframe>';

/** The relay page's scripts and styles, as the built page names them: the only other files served. */
function assetsOf(html: string): Set<string> {
  return new Set([...html.matchAll(/(?:src|href)="\.?\/?(assets\/[A-Za-z0-9._-]+)"/g)].map((match) => `/${match[1]}`));
}

/** The digests of the page's own inline scripts, for a policy that allows them and nothing else inline. */
function inlineScriptHashes(html: string): string[] {
  return [...html.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((match) => `'sha256-${createHash('sha256').update(match[1] ?? '').digest('base64')}'`);
}

/** What the app's resource declared (`?csp=`, JSON in base64url), or nothing when it does not read as one. */
function declarationOf(encoded: string | null): AppCspDeclaration | undefined {
  if (!encoded || encoded.length > MAX_DECLARATION) return undefined;
  try {
    const value: unknown = JSON.parse(Buffer.from(encoded, 'base64url').toString('utf8'));
    return value && typeof value === 'object' && !Array.isArray(value) ? (value) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The second origin MCP Apps run on (`http://127.0.0.1:<its own port>`), in
 * the browser host and the desktop app alike: it serves the relay page (and
 * its script), the app documents the core read (by digest), and nothing
 * else; no token, no API, no cookies. Only the window named in `?host=` may
 * frame them.
 *
 * `/app?doc=<digest>` of a document on the shelf is the relay page with the
 * app's frame already in it, loading `/doc/<digest>` under the policy the
 * app declared (`appCsp`): the app's process starts as the relay is parsed,
 * not after its script asked the window for the text. Without a known
 * digest the relay asks (the window holds the text) and writes it into its
 * frame, which then runs under the relay page's policy: the declared one.
 * `/app?standby` is the relay page with an empty app frame, loaded before an
 * app needs it: the window later loads `/doc/<digest>` into that frame.
 * `/warm` is an empty frame of the kind the apps run in, which the window
 * keeps once it shows an app, so the next app finds its process started.
 */
export async function startAppSandbox(options: { rendererDir: string; log: Logger; port?: number; documents?: AppDocumentShelf }): Promise<AppSandbox> {
  const page = await readFile(path.join(options.rendererDir, PAGE), 'utf8');
  // The app's frame goes in right after it; a page without it would leave the relay making its own under a policy
  // meant for a page that has one.
  if (!page.includes('<body>')) throw new Error(`${PAGE} has no <body> tag for the app's frame; the renderer's build is not the one this host expects.`);
  const assets = assetsOf(page);
  const relayScripts = inlineScriptHashes(page);
  const documents = options.documents ?? createAppDocumentShelf();
  let authority = '';
  const origin = () => `http://${authority}`;

  const send = (response: ServerResponse, status: number, body = '') => {
    response.statusCode = status;
    response.setHeader('Content-Type', 'text/plain; charset=utf-8');
    // Every answer of the sandbox's origin has a policy: a plain-text refusal opened as a page runs nothing and frames nothing.
    response.setHeader('Content-Security-Policy', "default-src 'none'; frame-ancestors 'none'; sandbox");
    response.end(body);
  };

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    response.setHeader('X-Content-Type-Options', 'nosniff');
    response.setHeader('Referrer-Policy', 'no-referrer');
    response.setHeader('Cache-Control', 'no-store');
    // Another name for 127.0.0.1 (DNS rebinding) is not this sandbox.
    if (request.headers.host !== authority) return send(response, 421, 'Misdirected request.');
    if (request.method !== 'GET' && request.method !== 'HEAD') return send(response, 405, 'Only GET.');
    const url = new URL(request.url ?? '/', `http://${authority}`);
    const host = url.searchParams.get('host') ?? '';
    const html = (status: number, body: string, policy: string, ancestors = host) => {
      response.statusCode = status;
      response.setHeader('Content-Type', 'text/html; charset=utf-8');
      response.setHeader('Content-Security-Policy', `${policy}; frame-ancestors ${ancestors}`);
      response.end(request.method === 'HEAD' ? undefined : body);
    };
    if (url.pathname === '/app' || url.pathname === '/warm' || url.pathname.startsWith('/doc/')) {
      if (!HOST_ORIGIN.test(host)) return send(response, 400, 'Only Toolbelt may embed an app.');
    }
    if (url.pathname === '/app') {
      // The relay's own policy when its app's document comes from here: its script, its inline early-message buffer,
      // its style, and the app's frame from this origin.
      const relayPolicy = `default-src 'none'; script-src 'self' ${relayScripts.join(' ')}; style-src 'unsafe-inline'; frame-src 'self'; base-uri 'none'; form-action 'none'; object-src 'none'`;
      // A relay loaded ahead of its app (renderer/features/apps/relay-frames.ts): its app's frame is empty until the
      // window, which may navigate a frame inside its own, loads the document into it.
      if (url.searchParams.has('standby')) return html(200, page.replace('<body>', `<body><iframe sandbox="${INNER_SANDBOX}" title="MCP App"></iframe>`), relayPolicy);
      const digest = url.searchParams.get('doc') ?? '';
      if (!documents.get(digest)) return html(200, page, appCsp(declarationOf(url.searchParams.get('csp'))));
      const allow = allowAttribute(permissionsObject((url.searchParams.get('allow') ?? '').split(',')));
      const frame = `<iframe sandbox="${INNER_SANDBOX}"${allow ? ` allow="${allow}"` : ''} title="MCP App" src="/doc/${digest}?host=${encodeURIComponent(host)}"></iframe>`;
      return html(200, page.replace('<body>', `<body>${frame}`), relayPolicy);
    }
    if (url.pathname.startsWith('/doc/')) {
      const document = documents.get(url.pathname.slice('/doc/'.length));
      if (!document) return html(404, MISSING_PAGE, MISSING_POLICY, `${origin()} ${host}`);
      // Named by its content and policy, it never changes: the next card showing this app takes it from the browser's
      // cache rather than from a core busy with the call.
      response.setHeader('Cache-Control', 'private, max-age=31536000, immutable');
      // Its frame sits in the relay (this origin) in the window: both are its ancestors. Opaque however it is opened,
      // framed or not: the policy sandboxes it as the relay's frame does.
      return html(200, document.html, `${appCsp(document.csp)}; sandbox ${INNER_SANDBOX}`, `${origin()} ${host}`);
    }
    if (url.pathname === '/warm') return html(200, WARM_PAGE, "default-src 'none'; frame-src 'self'");
    if (assets.has(url.pathname)) {
      const file = await readFile(path.join(options.rendererDir, url.pathname.slice(1)));
      response.statusCode = 200;
      response.setHeader('Content-Type', url.pathname.endsWith('.css') ? 'text/css; charset=utf-8' : 'text/javascript; charset=utf-8');
      response.setHeader('Cross-Origin-Resource-Policy', 'same-origin');
      // Named by their content's hash: the next app's relay takes them from the cache (two requests less before it starts).
      response.setHeader('Cache-Control', 'public, max-age=31536000, immutable');
      response.end(request.method === 'HEAD' ? undefined : file);
      return;
    }
    send(response, 404, 'Not here.');
  }

  const server = createLimitedServer(undefined, (request, response) => {
    handle(request, response).catch((error: unknown) => {
      options.log.error('app sandbox request failed', { url: request.url, error: String(error) });
      if (!response.headersSent) send(response, 500, 'The sandbox could not answer.');
      else response.destroy();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, LOOPBACK, () => resolve());
  });
  authority = `${LOOPBACK}:${(server.address() as AddressInfo).port}`;
  return {
    origin: origin(),
    documents,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

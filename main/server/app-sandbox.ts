import { readFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { Logger } from '../log.js';
import { listenerOptions } from '../common/listener-limits.js';
import { appCsp, type AppCspDeclaration } from '../../shared/app-csp.js';

const LOOPBACK = '127.0.0.1';
const PAGE = 'app-sandbox.html';
/** The windows that may embed an app: the browser host (a loopback port) and the desktop app (app://). */
const HOST_ORIGIN = /^(?:http:\/\/(?:127\.0\.0\.1|localhost):\d{1,5}|app:\/\/[a-z0-9.-]+)$/;
/** A declaration longer than this is not one: a URL carries it. */
const MAX_DECLARATION = 8_000;

export interface AppSandbox {
  /** The sandbox's own origin: never the window's. */
  origin: string;
  close(): Promise<void>;
}

/** The relay page's scripts and styles, as the built page names them: the only other files served. */
function assetsOf(html: string): Set<string> {
  return new Set([...html.matchAll(/(?:src|href)="\.?\/?(assets\/[A-Za-z0-9._-]+)"/g)].map((match) => `/${match[1]}`));
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
 * its script) and nothing else; no token, no API, no cookies. The page's
 * policy is what the app's resource declared (`appCsp`), and only the window
 * named in `?host=` may frame it.
 */
export async function startAppSandbox(options: { rendererDir: string; log: Logger; port?: number }): Promise<AppSandbox> {
  const page = await readFile(path.join(options.rendererDir, PAGE), 'utf8');
  const assets = assetsOf(page);
  let authority = '';

  const send = (response: ServerResponse, status: number, body = '') => {
    response.statusCode = status;
    response.setHeader('Content-Type', 'text/plain; charset=utf-8');
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
    if (url.pathname === '/app') {
      const host = url.searchParams.get('host') ?? '';
      if (!HOST_ORIGIN.test(host)) return send(response, 400, 'Only Toolbelt may embed an app.');
      response.statusCode = 200;
      response.setHeader('Content-Type', 'text/html; charset=utf-8');
      response.setHeader('Content-Security-Policy', `${appCsp(declarationOf(url.searchParams.get('csp')))}; frame-ancestors ${host}`);
      response.end(request.method === 'HEAD' ? undefined : page);
      return;
    }
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

  const server = createServer(listenerOptions(), (request, response) => {
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
    origin: `http://${authority}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

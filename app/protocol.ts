import { readFile } from 'node:fs/promises';
import { protocol } from 'electron';
import { rendererCsp } from '../shared/csp.js';
import { contentTypeFor, resolveAsset } from '../main/server/static-files.js';
import { APP_HOST, APP_SCHEME } from './url-policy.js';

/** Must run before app 'ready': makes app:// a secure, standard origin. */
export function registerAppSchemeAsPrivileged(): void {
  protocol.registerSchemesAsPrivileged([
    { scheme: APP_SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true, codeCache: true } },
  ]);
}

/** Serves the built renderer from app://toolbelt/ with the CSP (which may frame the MCP App sandbox); nothing else. */
export function serveRendererOverAppScheme(rendererDir: string, appSandboxOrigin: string): void {
  protocol.handle(APP_SCHEME, async (request) => {
    const url = new URL(request.url);
    if (url.host !== APP_HOST || request.method !== 'GET') return new Response('Not found', { status: 404 });
    const candidates = [resolveAsset(rendererDir, url.pathname)];
    if (!/\.[a-z0-9]+$/i.test(url.pathname)) candidates.push(resolveAsset(rendererDir, '/index.html'));
    for (const file of candidates) {
      if (!file) continue;
      const body = await readFile(file).catch(() => null);
      if (!body) continue;
      return new Response(body, {
        headers: {
          'Content-Type': contentTypeFor(file),
          'Content-Security-Policy': rendererCsp(appSandboxOrigin),
          'X-Content-Type-Options': 'nosniff',
        },
      });
    }
    return new Response('Not found', { status: 404 });
  });
}

import { createHash } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { request } from 'node:http';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createLogger } from '../log.js';
import { makeTempDir } from '../../testing/cores/temp-dir.js';
import { startAppSandbox, type AppSandbox } from './app-sandbox.js';

/** A GET with the Host header of our choosing (fetch will not send another). */
function get(origin: string, pathAndQuery: string, options: { host?: string; method?: string } = {}) {
  const url = new URL(origin);
  return new Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }>((resolve, reject) => {
    const sent = request({ host: url.hostname, port: url.port, path: pathAndQuery, method: options.method ?? 'GET', headers: { host: options.host ?? url.host } }, (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (body += chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body }));
    });
    sent.on('error', reject);
    sent.end();
  });
}

const csp = (declaration: unknown) => Buffer.from(JSON.stringify(declaration)).toString('base64url');

describe('the MCP App sandbox: a second origin that serves the relay page and nothing else', () => {
  let sandbox: AppSandbox | undefined;
  afterEach(async () => {
    await sandbox?.close();
  });

  async function start() {
    const temp = await makeTempDir('toolbelt-sandbox-');
    await mkdir(path.join(temp.dir, 'assets'));
    await writeFile(
      path.join(temp.dir, 'app-sandbox.html'),
      '<!doctype html><html><head><script>window.early = [];</script><script type="module" src="./assets/appSandbox-abc.js"></script></head><body></body></html>',
    );
    await writeFile(path.join(temp.dir, 'assets', 'appSandbox-abc.js'), 'console.log("relay")');
    await writeFile(path.join(temp.dir, 'assets', 'index-def.js'), 'console.log("the window")');
    await writeFile(path.join(temp.dir, 'index.html'), '<!doctype html><p>the window');
    sandbox = await startAppSandbox({ rendererDir: temp.dir, log: createLogger({ level: 'error' }) });
    return sandbox.origin;
  }

  it('serves the relay page under the policy the app declared, framed only by the window named', async () => {
    const origin = await start();
    expect(origin).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const page = await get(origin, `/app?host=${encodeURIComponent('http://127.0.0.1:4321')}&csp=${csp({ connectDomains: ['https://api.example.com'] })}`);
    expect(page.status).toBe(200);
    expect(page.body).toContain('appSandbox-abc.js');
    const policy = String(page.headers['content-security-policy']);
    expect(policy).toContain('connect-src https://api.example.com;');
    expect(policy).toMatch(/frame-ancestors http:\/\/127\.0\.0\.1:4321$/);
    expect(page.headers['x-frame-options']).toBeUndefined();
    expect((await get(origin, '/assets/appSandbox-abc.js')).body).toBe('console.log("relay")');
  });

  it('serves a document the core kept by its digest, in the relay page that frames it sandboxed, under the policy it declared', async () => {
    const origin = await start();
    const host = encodeURIComponent('http://127.0.0.1:4321');
    const digest = sandbox!.documents.keep({ html: '<p>the clock app</p>', csp: { connectDomains: ['https://api.example.com'] } })!;
    const relay = await get(origin, `/app?host=${host}&doc=${digest}&allow=camera,clipboard-write,usb`);
    expect(relay.status).toBe(200);
    // The app's frame is in the page from the start: an opaque origin (no allow-same-origin), only the features passed.
    expect(relay.body).toContain(`<body><iframe sandbox="allow-scripts allow-forms" allow="camera *; clipboard-write *" title="MCP App" src="/doc/${digest}?host=${host}"></iframe>`);
    const relayPolicy = String(relay.headers['content-security-policy']);
    // Its own inline script by hash (no other inline script runs in it), the app's frame from here, and nothing else.
    expect(relayPolicy).toContain(`script-src 'self' 'sha256-${createHash('sha256').update('window.early = [];').digest('base64')}';`);
    expect(relayPolicy.split('; ').find((directive) => directive.startsWith('script-src'))).not.toContain('unsafe-inline');
    expect(relayPolicy).toContain("frame-src 'self'");
    expect(relayPolicy).toMatch(/frame-ancestors http:\/\/127\.0\.0\.1:4321$/);

    const document = await get(origin, `/doc/${digest}?host=${host}`);
    expect(document.body).toBe('<p>the clock app</p>');
    // Named by what it is, it never changes: the browser may keep it for the next card (the relay's page may not).
    expect(document.headers['cache-control']).toBe('private, max-age=31536000, immutable');
    expect(relay.headers['cache-control']).toBe('no-store');
    const policy = String(document.headers['content-security-policy']);
    expect(policy).toContain('connect-src https://api.example.com;');
    // An opaque origin even opened on its own (a tab): the policy sandboxes it as its frame does.
    expect(policy).toContain('; sandbox allow-scripts allow-forms;');
    // Its ancestors are the relay (this origin) and the window.
    expect(policy).toMatch(new RegExp(`frame-ancestors ${origin.replace(/\./g, '\\.')} http://127\\.0\\.0\\.1:4321$`));

    // A digest the shelf does not have: the relay page that asks the window for the text, under the declared policy.
    const unknown = await get(origin, `/app?host=${host}&doc=${'0'.repeat(64)}&csp=${csp({ connectDomains: ['https://other.example.com'] })}`);
    expect(unknown.body).not.toContain('<iframe');
    expect(String(unknown.headers['content-security-policy'])).toContain('connect-src https://other.example.com;');
    // A document it does not hold: a page that says so to the relay (and through it the window), nothing else.
    const missing = await get(origin, `/doc/${'0'.repeat(64)}?host=${host}`);
    expect(missing.status).toBe(404);
    const said = 'parent.postMessage({jsonrpc:"2.0",method:"toolbelt/document-missing"},"*")';
    expect(missing.body).toContain(`<script>${said}</script>`);
    expect(missing.headers['content-security-policy']).toBe(
      `default-src 'none'; script-src 'sha256-${createHash('sha256').update(said).digest('base64')}'; sandbox allow-scripts; frame-ancestors ${origin} http://127.0.0.1:4321`,
    );
    // Not kept by the browser: the shelf may have the document next time.
    expect(missing.headers['cache-control']).toBe('no-store');
    expect((await get(origin, `/doc/${digest}?host=${encodeURIComponent('https://evil.example.com')}`)).status).toBe(400);
    expect((await get(origin, `/doc/${digest}`)).status).toBe(400);
    expect((await get(origin, `/doc/..%2Fapp-sandbox.html?host=${host}`)).status).toBe(404);

    // A relay loaded ahead of its app: its app's frame empty (the window loads the document into it later), opaque as
    // ever, under the relay's own strict policy.
    const standby = await get(origin, `/app?standby&host=${host}`);
    expect(standby.status).toBe(200);
    expect(standby.body).toContain('<body><iframe sandbox="allow-scripts allow-forms" title="MCP App"></iframe>');
    expect(standby.headers['content-security-policy']).toBe(relayPolicy);
    expect((await get(origin, '/app?standby')).status).toBe(400);

    // The page that keeps the apps' process started: one empty sandboxed frame, nothing to run.
    const warm = await get(origin, `/warm?host=${host}`);
    expect(warm.body).toContain('<iframe sandbox srcdoc=""></iframe>');
    expect(warm.body).not.toContain('<script');
    expect(String(warm.headers['content-security-policy'])).toMatch(/^default-src 'none'; frame-src 'self'; frame-ancestors http:\/\/127\.0\.0\.1:4321$/);
    expect((await get(origin, '/warm')).status).toBe(400);
  });

  it('refuses everything else: another embedder, other files, other names, other methods, a declaration that is not one', async () => {
    const origin = await start();
    expect((await get(origin, `/app?host=${encodeURIComponent('https://evil.example.com')}`)).status).toBe(400);
    expect((await get(origin, '/app')).status).toBe(400);
    expect((await get(origin, '/index.html')).status).toBe(404);
    expect((await get(origin, '/assets/index-def.js')).status).toBe(404);
    expect((await get(origin, '/assets/../index.html')).status).toBe(404);
    expect((await get(origin, '/api/app/info')).status).toBe(404);
    expect((await get(origin, '/app?host=http%3A%2F%2F127.0.0.1%3A4321', { host: 'rebound.example.com' })).status).toBe(421);
    expect((await get(origin, '/app?host=http%3A%2F%2F127.0.0.1%3A4321', { method: 'POST' })).status).toBe(405);
    // Every refusal carries a policy too: opened as a page, it runs and frames nothing.
    for (const refusal of [await get(origin, '/index.html'), await get(origin, '/app'), await get(origin, '/app', { host: 'rebound.example.com' })]) {
      expect(String(refusal.headers['content-security-policy'])).toBe("default-src 'none'; frame-ancestors 'none'; sandbox");
    }
    const hostile = await get(origin, `/app?host=${encodeURIComponent('http://127.0.0.1:4321')}&csp=${'A'.repeat(9000)}`);
    expect(hostile.status).toBe(200);
    expect(String(hostile.headers['content-security-policy'])).toContain("connect-src 'none'");
    const garbled = await get(origin, `/app?host=${encodeURIComponent('http://127.0.0.1:4321')}&csp=%7B%7Bnot-json`);
    expect(String(garbled.headers['content-security-policy'])).toContain("connect-src 'none'");
    // A relay page with nowhere to put the app's frame is not served at all.
    const broken = await makeTempDir('toolbelt-sandbox-');
    await writeFile(path.join(broken.dir, 'app-sandbox.html'), '<!doctype html><body class="x">');
    await expect(startAppSandbox({ rendererDir: broken.dir, log: createLogger({ level: 'error' }) })).rejects.toThrow(/no <body> tag/);
    await broken.cleanup();
  });
});

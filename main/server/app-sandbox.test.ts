import { mkdir, writeFile } from 'node:fs/promises';
import { request } from 'node:http';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createLogger } from '../log.js';
import { makeTempDir } from '../testing/temp-dir.js';
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
    await writeFile(path.join(temp.dir, 'app-sandbox.html'), '<!doctype html><script type="module" src="./assets/appSandbox-abc.js"></script>');
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
    const hostile = await get(origin, `/app?host=${encodeURIComponent('http://127.0.0.1:4321')}&csp=${'A'.repeat(9000)}`);
    expect(hostile.status).toBe(200);
    expect(String(hostile.headers['content-security-policy'])).toContain("connect-src 'none'");
    const garbled = await get(origin, `/app?host=${encodeURIComponent('http://127.0.0.1:4321')}&csp=%7B%7Bnot-json`);
    expect(String(garbled.headers['content-security-policy'])).toContain("connect-src 'none'");
  });
});

import net from 'node:net';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSseParser } from '../../renderer/api/sse.js';
import { startInProcessHost, type InProcessHost } from '../../testing/harness/in-process-host.js';
import { rawRequest } from '../../testing/harness/raw-request.js';
import { makeTempDir } from '../../testing/cores/temp-dir.js';

let subject: InProcessHost;
let rendererDir: string;
let cleanupRenderer: () => Promise<void>;

beforeAll(async () => {
  const temp = await makeTempDir('toolbelt-renderer-');
  rendererDir = path.join(temp.dir, 'renderer');
  cleanupRenderer = temp.cleanup;
  await writeFile(path.join(temp.dir, 'secret.txt'), 'TOP-SECRET');
  await mkdir(path.join(rendererDir, 'assets'), { recursive: true });
  await writeFile(path.join(rendererDir, 'index.html'), '<!doctype html><title>Toolbelt</title>');
  await writeFile(path.join(rendererDir, 'assets', 'app-abc.js'), 'console.log(1)');
  subject = await startInProcessHost({ heartbeatMs: 50, rendererDir });
});

afterAll(async () => {
  await subject.stop();
  await cleanupRenderer();
});

describe('browser host: access control', () => {
  it('refuses an API call without a token with 401', async () => {
    const response = await fetch(`${subject.base}/api/app/info`);
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toBe('Bearer');
    expect(await response.json()).toMatchObject({ error: { code: 'unauthorized' } });
  });

  it('refuses a wrong token with 401', async () => {
    const response = await fetch(`${subject.base}/api/app/info`, { headers: { Authorization: 'Bearer not-the-token-at-all' } });
    expect(response.status).toBe(401);
  });

  it('refuses the event stream without a token with 401', async () => {
    const response = await fetch(`${subject.base}/api/events`);
    expect(response.status).toBe(401);
  });

  it('refuses a foreign Origin with 403 even with the right token', async () => {
    const response = await rawRequest(`${subject.base}/api/app/info`, {
      headers: { ...subject.authorization, Origin: 'https://evil.example' },
    });
    expect(response.status).toBe(403);
    expect(JSON.parse(response.body)).toMatchObject({ error: { code: 'forbidden' } });
  });

  it('refuses a foreign Host (DNS rebinding) with 403, for pages too', async () => {
    for (const route of ['/api/app/info', '/']) {
      const response = await rawRequest(`${subject.base}${route}`, {
        headers: { ...subject.authorization, Host: `rebind.example:${subject.host.port}` },
      });
      expect(response.status).toBe(403);
    }
  });

  it('accepts its own origin and localhost as Host', async () => {
    const response = await rawRequest(`${subject.base}/api/app/health`, {
      headers: { ...subject.authorization, Origin: subject.base, Host: `localhost:${subject.host.port}` },
    });
    expect(response.status).toBe(200);
  });

  it('listens on 127.0.0.1 only', async () => {
    expect(subject.host.url.startsWith(`http://127.0.0.1:${subject.host.port}/#token=`)).toBe(true);
    const reachable = (host: string) =>
      new Promise<boolean>((resolve) => {
        const socket = net.connect({ host, port: subject.host.port });
        socket.once('connect', () => {
          socket.destroy();
          resolve(true);
        });
        socket.once('error', () => resolve(false));
      });
    expect(await reachable('127.0.0.1')).toBe(true);
    expect(await reachable('::1')).toBe(false);
    expect(await reachable('127.0.0.2')).toBe(false);
  });
});

describe('browser host: operations', () => {
  it('round-trips app.info', async () => {
    const response = await fetch(`${subject.base}/api/app/info`, { headers: subject.authorization });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      name: 'Toolbelt',
      version: '9.9.9-test',
      dataDir: subject.dataDir,
      hostKind: 'browser',
      platform: process.platform,
      runtime: { node: process.versions.node },
    });
  });

  it('answers app.health', async () => {
    const response = await fetch(`${subject.base}/api/app/health`, { headers: subject.authorization });
    const health = (await response.json()) as { status: string; uptimeMs: unknown };
    expect(health.status).toBe('ok');
    expect(health.uptimeMs).toBeTypeOf('number');
  });

  it('maps invalid params to 400 with the issues', async () => {
    const response = await fetch(`${subject.base}/api/app/info?verbose=true`, { headers: subject.authorization });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({
      error: { code: 'invalid_params', details: { issues: [{ path: '/', message: 'unknown property "verbose"' }] } },
    });
  });

  it('answers an unknown API route with 404 not_found', async () => {
    const response = await fetch(`${subject.base}/api/nothing/here`, { headers: subject.authorization });
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({ error: { code: 'not_found' } });
  });

  it('answers a wrong verb with 405 and Allow', async () => {
    const response = await fetch(`${subject.base}/api/app/info`, { method: 'DELETE', headers: subject.authorization });
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('GET');
  });

  it('streams core events to an authorised client', async () => {
    const controller = new AbortController();
    const response = await fetch(`${subject.base}/api/events`, { headers: subject.authorization, signal: controller.signal });
    expect(response.headers.get('content-type')).toContain('text/event-stream');
    const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
    const parse = createSseParser();
    let received: unknown;
    while (!received) {
      const { value, done } = await reader.read();
      if (done) break;
      received = parse(value)[0];
    }
    controller.abort();
    expect(received).toMatchObject({ event: 'app.heartbeat' });
    expect(JSON.parse((received as { data: string }).data)).toMatchObject({ type: 'app.heartbeat' });
  });
});

describe('browser host: pages and headers', () => {
  it('sends a strict Content-Security-Policy with the page', async () => {
    const response = await fetch(`${subject.base}/`);
    expect(response.status).toBe(200);
    const csp = response.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toContain('unsafe-eval');
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('sends a CSP with API responses and errors too', async () => {
    for (const headers of [subject.authorization, {}]) {
      const response = await fetch(`${subject.base}/api/app/health`, { headers });
      expect(response.headers.get('content-security-policy')).toBe("default-src 'none'; frame-ancestors 'none'");
    }
  });

  it('serves fingerprinted assets as immutable and screens as the app', async () => {
    const asset = await fetch(`${subject.base}/assets/app-abc.js`);
    expect(asset.headers.get('content-type')).toContain('text/javascript');
    expect(asset.headers.get('cache-control')).toContain('immutable');
    const screen = await fetch(`${subject.base}/settings`);
    expect(await screen.text()).toContain('<title>Toolbelt</title>');
  });

  it('never serves files outside the renderer folder', async () => {
    for (const attempt of ['/../secret.txt', '/%2e%2e/secret.txt', '/assets/..%2f..%2fsecret.txt', '/..%5csecret.txt']) {
      const response = await rawRequest(`${subject.base}${attempt}`);
      expect(response.status).toBe(404);
      expect(response.body).not.toContain('TOP-SECRET');
    }
  });
});

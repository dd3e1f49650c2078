import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import path from 'node:path';
import { describe, expect, it, onTestFinished, vi } from 'vitest';
import { expectOk } from '../../testing/harness/invoke-harness.js';
import { startOAuthMcpServer } from '../../testing/servers/oauth-mcp.js';
import { startTestCore, type TestCore } from '../../testing/harness/test-core.js';
import { silentLogger } from '../log.js';
import { createKeyFileCipher } from '../secrets/key-file-cipher.js';
import { createLayout } from '../store/layout.js';
import { OAuthCallbackServer } from '../tools/http/oauth-callback.js';
import { OAuthVault } from './oauth-vault.js';

/** The server's view once it is in the `wanted` state (a sign-in finishing, a restart). */
async function serverState(subject: TestCore, name: string, wanted: string) {
  return vi.waitFor(
    async () => {
      const view = (await subject.call('mcpServers.list', {})).servers.find((server) => server.name === name);
      if (view?.state !== wanted) throw new Error(`${name} is ${view?.state ?? 'gone'}, not ${wanted}`);
      return view;
    },
    { timeout: 10_000, interval: 50 },
  );
}

describe('a remote MCP server behind OAuth', () => {
  it('asks the person to sign in, connects once the browser comes back, refreshes expired tokens, and keeps them encrypted across restarts', async () => {
    const remote = await startOAuthMcpServer();
    onTestFinished(remote.stop);
    const subject = await startTestCore();
    const added = await subject.call('mcpServers.put', { name: 'protected', config: { url: remote.url } });
    expect(added).toMatchObject({ state: 'failed', error: { code: 'mcp_auth_required', message: expect.stringContaining('asks you to sign in') as unknown } });
    const authorization = new URL(added.authorizationUrl!);
    expect(authorization.origin).toBe(new URL(remote.base).origin);
    expect(authorization.searchParams.get('code_challenge_method')).toBe('S256');
    expect(authorization.searchParams.get('redirect_uri')).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/callback$/);

    // A start that needs a sign-in is no crash: no restart is scheduled behind the person's back (it would say
    // "Restarting in …" and bring a new sign-in page).
    const listed = (await subject.call('mcpServers.list', {})).servers[0]!;
    expect(listed).toMatchObject({ state: 'failed', error: { code: 'mcp_auth_required' }, authorizationUrl: added.authorizationUrl });
    expect(listed.error!.message).not.toContain('Restarting');

    // The person's browser: the sign-in page redirects to Toolbelt's loopback listener.
    const browser = await fetch(authorization);
    expect(browser.status).toBe(200);
    expect(await browser.text()).toContain('You are signed in');
    const connected = await serverState(subject, 'protected', 'connected');
    expect(connected.authorizationUrl).toBeUndefined();
    const call = () => subject.call('tools.invoke', { bundleID: connected.bundleID, toolSlug: 'whoami', version: 'mcp', args: {} });
    expect(expectOk(await call()).value).toMatch(/^client /);

    // Tokens are kept as secrets: encrypted at rest.
    const vault = await readFile(path.join(subject.dataDir, 'mcp-oauth.json'), 'utf8');
    expect(vault).toContain('"protected"');
    expect(vault).not.toMatch(/access_token|refresh_token|code_verifier/);

    // The access token expires; the next call refreshes it without the person.
    await remote.expireTokens();
    expect(expectOk(await call()).value).toMatch(/^client /);
    expect((await remote.counts()).refreshed).toBeGreaterThanOrEqual(1);

    // After a restart the kept tokens are used, refreshed if they expired meanwhile: no sign-in page,
    // even when the loopback port of the registration is taken by another program this time.
    const registeredPort = Number(authorization.searchParams.get('redirect_uri')!.split(':')[2]!.split('/')[0]);
    const squatter = createServer(() => undefined);
    onTestFinished(() => new Promise<void>((resolve) => squatter.close(() => resolve())));
    const reopened = await subject.reopen(async () => {
      await new Promise<void>((resolve) => squatter.listen(registeredPort, '127.0.0.1', resolve));
      await remote.expireTokens();
    });
    const again = await reopened.call('tools.invoke', { bundleID: connected.bundleID, toolSlug: 'whoami', version: 'mcp', args: {} });
    expect(expectOk(again).value).toMatch(/^client /);

    // Signed out (no tokens) with a registration for a port that is taken: Toolbelt registers again for
    // the port it has, so the sign-in page it offers is one the server accepts.
    const third = await reopened.reopen(async () => {
      const vault = new OAuthVault(createLayout(subject.dataDir), await createKeyFileCipher(path.join(subject.dataDir, 'secrets.key')), silentLogger);
      await vault.update('protected', ({ client }) => ({ ...(client ? { client } : {}) }));
    });
    const signIn = await third.call('mcpServers.restart', { name: 'protected' });
    expect(signIn.error?.code).toBe('mcp_auth_required');
    const redirect = new URL(signIn.authorizationUrl!).searchParams.get('redirect_uri')!;
    expect(redirect).not.toContain(`:${registeredPort}/`);
    expect((await fetch(signIn.authorizationUrl!)).status).toBe(200);
    await serverState(third, 'protected', 'connected');

    // Removing the server forgets its sign-in.
    await third.call('mcpServers.delete', { name: 'protected' });
    expect(await readFile(path.join(subject.dataDir, 'mcp-oauth.json'), 'utf8')).not.toContain('"protected"');
  });
});

describe('the loopback redirect', () => {
  it('answers only the sign-in it waits for, and shows a server’s words as text', async () => {
    const callbacks = new OAuthCallbackServer();
    const redirect = await callbacks.start();
    try {
      const waiting = callbacks.expect('state-1');
      const refusal = expect(waiting).rejects.toThrow('the sign-in was refused: <script>alert(1)</script>');
      expect((await fetch(`${redirect}?code=abc&state=someone-else`)).status).toBe(400);
      expect((await fetch(new URL('/other', redirect))).status).toBe(404);
      const refused = await fetch(`${redirect}?state=state-1&error=access_denied&error_description=${encodeURIComponent('<script>alert(1)</script>')}`);
      const page = await refused.text();
      expect(page).not.toContain('<script>');
      expect(page).toContain('&#60;script&#62;');
      expect(refused.headers.get('content-security-policy')).toContain("default-src 'none'");
      await refusal;

      const second = callbacks.expect('state-2');
      await fetch(`${redirect}?state=state-2&code=the-code`);
      expect((await second).code).toBe('the-code');
    } finally {
      await callbacks.close();
    }
  });
});

import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it, onTestFinished, vi } from 'vitest';
import { freePort } from '../../testing/cores/free-port.js';
import { expectError, expectOk, invokeHarness } from '../../testing/harness/invoke-harness.js';
import { startOAuthMcpServer } from '../../testing/servers/oauth-mcp.js';
import { manualClock } from '../../testing/harness/test-core.js';

/** The provider's developer console, as a person uses it before the first sign-in: a client registered with Toolbelt's redirect. */
async function registerClient(base: string, redirectPort: number, confidential: boolean) {
  const response = await fetch(new URL('/register', base), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      client_name: 'Toolbelt',
      redirect_uris: [`http://127.0.0.1:${redirectPort}/callback`],
      token_endpoint_auth_method: confidential ? 'client_secret_post' : 'none',
      grant_types: ['authorization_code', 'refresh_token'],
    }),
  });
  expect(response.status).toBe(201);
  return (await response.json()) as { client_id: string; client_secret?: string };
}

async function signedInHarness(options: { confidential: boolean }) {
  const remote = await startOAuthMcpServer();
  onTestFinished(remote.stop);
  const redirectPort = await freePort();
  const client = await registerClient(remote.base, redirectPort, options.confidential);
  const clock = manualClock();
  const subject = await invokeHarness([new URL(remote.base).host], { clock });
  // A public client's ID is no secret; a confidential one's ID and secret are kept as secrets here.
  if (client.client_secret) {
    await subject.call('secrets.put', { name: 'CLIENT_ID', value: client.client_id });
    await subject.call('secrets.put', { name: 'CLIENT_SECRET', value: client.client_secret });
  }
  const auth = {
    kind: 'oauth2',
    flow: 'authorizationCode',
    authorizationUrl: new URL('/authorize', remote.base).href,
    tokenUrl: new URL('/token', remote.base).href,
    ...(client.client_secret ? { clientId: '${secret.CLIENT_ID}', clientSecret: '${secret.CLIENT_SECRET}', clientAuth: 'post' } : { clientId: client.client_id }),
    scope: 'mcp:tools',
    redirectPort,
  };
  await subject.call('bundles.put', { bundleID: subject.bundleID, slug: 'test', displayName: 'Demo API', http: { baseUrl: remote.base, auth: auth as never } });
  await subject.putHttpTool('whoami', { urlTemplate: '/api/whoami' });
  return { remote, subject, clock, redirectPort, client };
}

function signInState(subject: { call: (name: 'oauth.state', params: { bundleID: string }) => Promise<{ state: string }> }, bundleID: string, wanted: string) {
  return vi.waitFor(
    async () => {
      const view = await subject.call('oauth.state', { bundleID });
      if (view.state !== wanted) throw new Error(`the sign-in never became ${wanted} (it is ${view.state})`);
      return view;
    },
    { timeout: 10_000, interval: 20 },
  );
}

describe('OAuth 2 authorization code with PKCE (a person signs in in the browser)', () => {
  it('asks for a sign-in, signs in through the loopback redirect, calls with the token, renews it with the refresh token, and keeps tokens encrypted', async () => {
    const { remote, subject, clock, redirectPort, client } = await signedInHarness({ confidential: false });
    const bundleID = subject.bundleID;

    // Before a sign-in, a call says what to do; nothing is sent to the API.
    const before = expectError(await subject.invoke('whoami'), 'sign_in_required');
    expect(before.message).toBe('Sign in to Demo API first, from its connection.');
    expect(await subject.call('oauth.state', { bundleID })).toEqual({ state: 'signed-out', redirectUri: `http://127.0.0.1:${redirectPort}/callback` });

    const started = await subject.call('oauth.signIn', { bundleID });
    expect(started.state).toBe('waiting');
    const page = new URL(started.authorizationUrl!);
    expect(page.origin + page.pathname).toBe(new URL('/authorize', remote.base).href);
    expect(Object.fromEntries(page.searchParams)).toMatchObject({
      response_type: 'code',
      client_id: client.client_id,
      redirect_uri: `http://127.0.0.1:${redirectPort}/callback`,
      code_challenge_method: 'S256',
      scope: 'mcp:tools',
    });
    expect(page.searchParams.get('code_challenge')).toMatch(/^[A-Za-z0-9_-]{43}$/);

    // The person's browser: the provider's page sends it back to Toolbelt with the code.
    const browser = await fetch(page);
    expect(browser.status).toBe(200);
    expect(await browser.text()).toContain('You are signed in');
    const signedIn = await signInState(subject, bundleID, 'signed-in');
    expect(signedIn).toMatchObject({ refreshable: true });

    const first = expectOk(await subject.invoke('whoami', {}, { trace: true }));
    expect(first.value).toEqual({ client: client.client_id, scopes: ['mcp:tools'] });
    expect(first.trace!.map((entry) => entry.step ?? 'request')).toEqual(['request']);
    expect((await remote.counts()).issued).toBe(1);

    // An hour later the access token has run out: the refresh token buys the next one, shown as its own step.
    clock.advance(3_600_000);
    const renewed = expectOk(await subject.invoke('whoami', {}, { trace: true }));
    expect(renewed.trace!.map((entry) => [entry.step ?? 'request', entry.response?.status])).toEqual([
      ['token', 200],
      ['request', 200],
    ]);
    expect(renewed.trace![0]!.request.bodyPreview).toBe('grant_type=refresh_token&refresh_token=•••&scope=mcp:tools');
    expect((await remote.counts()).refreshed).toBe(1);

    const stored = await readFile(path.join(subject.dataDir, 'secrets.json'), 'utf8');
    expect(stored).not.toMatch(/accessToken|refreshToken/);

    // Signing out forgets the tokens: the tools ask for a sign-in again.
    expect(await subject.call('oauth.signOut', { bundleID })).toMatchObject({ state: 'signed-out' });
    expectError(await subject.invoke('whoami'), 'sign_in_required');
  });

  it('a confidential client proves itself with its secret; a refresh the provider refuses asks for a new sign-in', async () => {
    const { remote, subject, clock, client } = await signedInHarness({ confidential: true });
    const started = await subject.call('oauth.signIn', { bundleID: subject.bundleID });
    await fetch(started.authorizationUrl!);
    await signInState(subject, subject.bundleID, 'signed-in');
    // The answer names the client: its ID is a secret here, so it is masked.
    expect(expectOk(await subject.invoke('whoami')).value).toEqual({ client: '•••', scopes: ['mcp:tools'] });
    expect(client.client_secret).toBeTruthy();

    // The provider forgets every refresh token (it restarted): the next renewal fails, and the call says to sign in again.
    await remote.stop();
    clock.advance(3_600_000);
    const refused = expectError(await subject.invoke('whoami'), 'sign_in_required');
    expect(refused.message).toMatch(/^The sign-in to Demo API could not be renewed \(it could not be reached\)\. Sign in again from its connection\.$/);
  });

  it('refuses what cannot sign in: no browser sign-in on the connection, a missing client ID secret, a token endpoint that is not allowed, a taken redirect port, a refusal at the provider', async () => {
    const { remote, subject, redirectPort } = await signedInHarness({ confidential: true });
    const plain = await invokeHarness([]);
    expect(await plain.failure('oauth.signIn', { bundleID: plain.bundleID })).toMatchObject({ code: 'invalid_params', message: expect.stringContaining('does not sign in in the browser') as unknown });

    await subject.call('secrets.delete', { name: 'CLIENT_ID' });
    expect(await subject.failure('oauth.signIn', { bundleID: subject.bundleID })).toMatchObject({ code: 'missing_secret', message: expect.stringContaining('needs the secret CLIENT_ID') as unknown });
    // Its state says what to do rather than failing.
    expect(await subject.call('oauth.state', { bundleID: subject.bundleID })).toEqual({ state: 'signed-out', error: expect.stringContaining('needs the secret CLIENT_ID') as unknown });
    await subject.call('secrets.put', { name: 'CLIENT_ID', value: 'someone' });

    await subject.call('settings.patch', { allowedHosts: [] });
    expect(await subject.failure('oauth.signIn', { bundleID: subject.bundleID })).toMatchObject({ code: 'host_not_allowed' });
    await subject.call('settings.patch', { allowedHosts: [new URL(remote.base).host] });

    const squatter = (await import('node:net')).createServer().listen(redirectPort, '127.0.0.1');
    await new Promise((resolve) => squatter.once('listening', resolve));
    expect(await subject.failure('oauth.signIn', { bundleID: subject.bundleID })).toMatchObject({ code: 'port_in_use', message: expect.stringContaining(`Port ${redirectPort} on 127.0.0.1`) as unknown });
    await new Promise((resolve) => squatter.close(resolve));

    // The person says no at the provider: the browser comes back with an error, and the connection says so.
    const started = await subject.call('oauth.signIn', { bundleID: subject.bundleID });
    const state = new URL(started.authorizationUrl!).searchParams.get('state')!;
    const denied = await fetch(`http://127.0.0.1:${redirectPort}/callback?state=${state}&error=access_denied`);
    expect(denied.status).toBe(400);
    expect(await signInState(subject, subject.bundleID, 'failed')).toMatchObject({ error: 'Signing in failed: the sign-in was refused: access_denied. Sign in again.' });
  });
});

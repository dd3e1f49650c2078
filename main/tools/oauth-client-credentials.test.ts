import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { expectError, expectOk, invokeHarness } from '../../testing/harness/invoke-harness.js';
import { json, startLoopbackServer, type SeenRequest } from '../../testing/harness/loopback-server.js';
import { manualClock } from '../../testing/harness/test-core.js';

const CLIENT_SECRET = 'cl!ent "secret"';

/** A token endpoint (client credentials, HTTP Basic with form-encoded ID and secret, as RFC 6749 §2.3.1 says) and an API that takes only the tokens it has not revoked. */
async function startAuthServer() {
  const issued: string[] = [];
  const revoked = new Set<string>();
  const server = await startLoopbackServer({
    '/oauth/token': (request: SeenRequest, response) => {
      const [id, secret] = Buffer.from(String(request.headers.authorization ?? '').replace(/^Basic /, ''), 'base64').toString().split(':').map((part) => decodeURIComponent(part.replace(/\+/g, ' ')));
      const form = new URLSearchParams(request.body.toString());
      if (id !== 'toolbelt' || secret !== CLIENT_SECRET || form.get('grant_type') !== 'client_credentials') return json(response, 401, { error: 'invalid_client' });
      const token = `tok-${issued.length + 1}-${form.get('scope') ?? ''}`;
      issued.push(token);
      json(response, 200, { access_token: token, token_type: 'Bearer', expires_in: 600 });
    },
    '/api/me': (request, response) => {
      const token = String(request.headers.authorization ?? '').replace(/^Bearer /, '');
      if (!issued.includes(token) || revoked.has(token)) return json(response, 401, { error: 'invalid_token' });
      json(response, 200, { token });
    },
  });
  return { server, issued, revoked };
}

const oauth = (base: string, extra: Record<string, unknown> = {}) => ({
  kind: 'oauth2',
  flow: 'clientCredentials',
  tokenUrl: `${base}/oauth/token`,
  clientId: 'toolbelt',
  clientSecret: '${secret.CLIENT_SECRET}',
  scope: 'read',
  ...extra,
});

describe('OAuth 2 client credentials', () => {
  it('buys a token once and sends it, shows the token step in the trace, and keeps the token as a secret', async () => {
    const { server, issued } = await startAuthServer();
    const subject = await invokeHarness([server.host]);
    await subject.call('secrets.put', { name: 'CLIENT_SECRET', value: CLIENT_SECRET });
    await subject.putHttpTool('me', { urlTemplate: `${server.base}/api/me`, auth: oauth(server.base) as never });
    const first = expectOk(await subject.invoke('me', {}, { trace: true }));
    expect(first.value).toEqual({ token: '•••' });
    expect(first.trace!.map((entry) => entry.step ?? 'request')).toEqual(['token', 'request']);
    expect(first.trace![0]!.response?.status).toBe(200);
    expect(JSON.stringify(first.trace)).not.toMatch(/tok-1|cl!ent/);
    expectOk(await subject.invoke('me'));
    expect(issued).toEqual(['tok-1-read']);
    expect(server.requestsTo('/oauth/token')).toHaveLength(1);

    const { secrets } = (await subject.call('secrets.list', {})) as { secrets: { name: string }[] };
    // The token is Toolbelt's own secret: kept (sealed) apart from the person's, which are all a tool can name.
    expect(secrets.map((secret) => secret.name)).toEqual(['CLIENT_SECRET']);
    const stored = await readFile(path.join(subject.dataDir, 'secrets.json'), 'utf8');
    expect(stored).not.toContain('tok-1');
    expect(Object.keys((JSON.parse(stored) as { toolbelt: object }).toolbelt)).toEqual([expect.stringMatching(/^OAUTH_TOKEN_[0-9A-F]{24}$/) as unknown]);
  });

  it('buys a new token a minute before the kept one ends, and once when the API refuses the kept one', async () => {
    const { server, issued, revoked } = await startAuthServer();
    const clock = manualClock();
    const subject = await invokeHarness([server.host], { clock });
    await subject.call('secrets.put', { name: 'CLIENT_SECRET', value: CLIENT_SECRET });
    await subject.putHttpTool('me', { urlTemplate: `${server.base}/api/me`, auth: oauth(server.base) as never });
    expectOk(await subject.invoke('me'));
    clock.advance(9 * 60_000 + 1_000);
    expectOk(await subject.invoke('me'));
    expect(issued).toHaveLength(2);

    revoked.add(issued[1]!);
    const retried = expectOk(await subject.invoke('me', {}, { trace: true }));
    expect(issued).toHaveLength(3);
    expect(retried.attempts).toBe(2);
    expect(retried.trace!.map((entry) => [entry.step ?? 'request', entry.response?.status])).toEqual([
      ['request', 401],
      ['token', 200],
      ['request', 200],
    ]);
  });

  it('says why there is no token, without the secret, and checks the token endpoint against the allowed hosts', async () => {
    const { server } = await startAuthServer();
    const subject = await invokeHarness([server.host]);
    await subject.call('secrets.put', { name: 'CLIENT_SECRET', value: 'wrong "secret"' });
    await subject.putHttpTool('me', { urlTemplate: `${server.base}/api/me`, auth: oauth(server.base) as never });
    const refused = expectError(await subject.invoke('me'), 'auth_failed');
    expect(refused.message).toBe(`The token endpoint ${server.host} did not give a token: invalid_client (HTTP 401). Check the client ID and secret.`);
    expect(server.requestsTo('/api/me')).toHaveLength(0);

    await subject.putHttpTool('elsewhere', { urlTemplate: `${server.base}/api/me`, auth: oauth('http://auth.example.com') as never });
    expect(expectError(await subject.invoke('elsewhere'), 'host_not_allowed').message).toMatch(/token endpoint auth.example.com is not an allowed host/);
  });
});

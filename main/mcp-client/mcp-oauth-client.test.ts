import { describe, expect, it, onTestFinished, vi } from 'vitest';
import { expectOk } from '../../testing/harness/invoke-harness.js';
import { startOAuthMcpServer } from '../../testing/servers/oauth-mcp.js';
import { startTestCore } from '../../testing/harness/test-core.js';

/** Sign-in servers that do not let apps register themselves: a client registered by hand, in the server's config. */
describe('a remote MCP server whose sign-in server has no dynamic registration', () => {
  it('says to register Toolbelt by hand (mcp_client_required), then signs in with the client given in its config, its secret a secret', async () => {
    const remote = await startOAuthMcpServer({ preRegisteredClient: 'toolbelt-by-hand:s3cr3t' });
    onTestFinished(remote.stop);
    const { call } = await startTestCore();
    const plain = await call('mcpServers.put', { name: 'closed', config: { url: remote.url } });
    expect(plain).toMatchObject({ state: 'failed', error: { code: 'mcp_client_required', message: expect.stringContaining('"oauth": { "clientId"') as unknown } });

    await call('secrets.put', { name: 'CLOSED_CLIENT_SECRET', value: 's3cr3t' });
    const configured = await call('mcpServers.put', { name: 'closed', config: { url: remote.url, oauth: { clientId: 'toolbelt-by-hand', clientSecret: '${secret.CLOSED_CLIENT_SECRET}' } } });
    expect(configured).toMatchObject({ state: 'failed', error: { code: 'mcp_auth_required' } });
    const page = new URL(configured.authorizationUrl!);
    expect(page.searchParams.get('client_id')).toBe('toolbelt-by-hand');
    const browser = await fetch(page);
    expect(`${browser.status} ${await browser.text()}`).toMatch(/^200 /);
    const connected = await vi.waitFor(
      async () => {
        const [server] = (await call('mcpServers.list', {})).servers;
        if (server?.state !== 'connected') throw new Error(`still ${server?.state}`);
        return server;
      },
      { timeout: 10_000, interval: 20 },
    );
    const whoami = await call('tools.invoke', { bundleID: connected.bundleID, toolSlug: 'whoami', version: 'mcp', args: {} });
    expect(expectOk(whoami).value).toBe('client toolbelt-by-hand');
  });
});

/** A client ID metadata document the person hosts: its URL is the client id where the sign-in server takes such documents (the conformance suite's auth/basic-cimd signs in so). */
describe('a remote MCP server, with a client ID metadata document in its config', () => {
  it('refuses a document URL that is not https with a path, and registers as before with a sign-in server that does not take documents', async () => {
    const remote = await startOAuthMcpServer();
    onTestFinished(remote.stop);
    const { call } = await startTestCore();
    for (const clientMetadataUrl of ['http://toolbelt.example/client.json', 'https://toolbelt.example/', 'https://toolbelt.example']) {
      await expect(call('mcpServers.put', { name: 'documented', config: { url: remote.url, oauth: { clientMetadataUrl } } })).rejects.toMatchObject({ code: 'invalid_params' });
    }
    const configured = await call('mcpServers.put', { name: 'documented', config: { url: remote.url, oauth: { clientMetadataUrl: 'https://toolbelt.example/oauth/client.json' } } });
    expect(configured).toMatchObject({ state: 'failed', error: { code: 'mcp_auth_required' } });
    const clientID = new URL(configured.authorizationUrl!).searchParams.get('client_id');
    expect(clientID).toBeTruthy();
    expect(clientID).not.toBe('https://toolbelt.example/oauth/client.json');
  });
});

/** Machine-to-machine servers (OAuth client credentials): signed in by the conformance suite's scenarios in npm test; here, what a person can get wrong. */
describe('a remote MCP server reached with client credentials', () => {
  it('says what the config lacks when it gives neither a secret nor a private key (mcp_client_required), and never opens a sign-in page', async () => {
    const remote = await startOAuthMcpServer();
    onTestFinished(remote.stop);
    const { call } = await startTestCore();
    const server = await call('mcpServers.put', { name: 'robot', config: { url: remote.url, oauth: { clientId: 'robot', grant: 'client_credentials' } } });
    expect(server).toMatchObject({ state: 'failed', error: { code: 'mcp_client_required', message: expect.stringMatching(/neither "clientSecret" nor "privateKey"/) as unknown } });
    expect(server.authorizationUrl).toBeUndefined();
  });
});

import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { silentLogger } from '../log.js';
import { createKeyFileCipher } from '../secrets/key-file-cipher.js';
import { createLayout } from '../store/layout.js';
import { tempDirForTest } from '../../testing/harness/test-temp-dir.js';
import { McpOAuthProvider } from './oauth-provider.js';
import { OAuthVault } from './oauth-vault.js';

describe('the OAuth client of a remote MCP server', () => {
  it('keeps where it found the sign-in (resource metadata at a path of the server’s own, the authorization server) for finishing and refreshing, also after a restart, encrypted', async () => {
    const dataDir = await tempDirForTest();
    const vault = async () => new OAuthVault(createLayout(dataDir), await createKeyFileCipher(path.join(dataDir, 'secrets.key')), silentLogger);
    const first = new McpOAuthProvider('remote', await vault(), 'http://127.0.0.1:4000/callback', {});
    const discovery = {
      authorizationServerUrl: 'https://login.example.test/tenant-7',
      resourceMetadataUrl: 'https://mcp.example.test/custom/metadata-of-the-resource',
      resourceMetadata: { resource: 'https://mcp.example.test/mcp', authorization_servers: ['https://login.example.test/tenant-7'] },
    };
    await first.saveDiscoveryState(discovery);
    expect(await readFile(path.join(dataDir, 'mcp-oauth.json'), 'utf8')).not.toContain('custom/metadata-of-the-resource');

    const reopened = await vault();
    const second = new McpOAuthProvider('remote', reopened, 'http://127.0.0.1:4001/callback', await reopened.get('remote'));
    expect(second.discoveryState()).toEqual(discovery);
    // Repeated failures ask for discovery again: the state goes, nothing else does.
    await second.saveTokens({ access_token: 'a', token_type: 'bearer' });
    await second.invalidateCredentials('discovery');
    expect(second.discoveryState()).toBeUndefined();
    expect(second.tokens()).toEqual({ access_token: 'a', token_type: 'bearer' });
  });

  it('uses a client registered by hand as it is, and never registers over it', async () => {
    const dataDir = await tempDirForTest();
    const vault = new OAuthVault(createLayout(dataDir), await createKeyFileCipher(path.join(dataDir, 'secrets.key')), silentLogger);
    const provider = new McpOAuthProvider('closed', vault, 'http://127.0.0.1:4000/callback', {}, { preRegistered: { client_id: 'by-hand', client_secret: 's3cr3t' } });
    expect(provider.clientInformation()).toEqual({ client_id: 'by-hand', client_secret: 's3cr3t' });
    expect(provider.clientMetadata.token_endpoint_auth_method).toBe('client_secret_post');
    await provider.saveClientInformation({ client_id: 'dynamic' });
    expect(provider.clientInformation()).toEqual({ client_id: 'by-hand', client_secret: 's3cr3t' });
    expect((await vault.get('closed')).client).toBeUndefined();
  });
});

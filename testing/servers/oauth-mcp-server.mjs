// An MCP server behind OAuth, built from the official SDK's own parts: its
// authorization-server router (metadata, dynamic client registration,
// PKCE-checked token endpoint) over the SDK's demo provider (which signs the
// person in at once and redirects back), its bearer-token middleware with
// protected-resource metadata, a Streamable HTTP MCP server with one tool,
// and a plain REST endpoint behind the same tokens (GET /api/whoami, for
// HTTP tools that sign in with the authorization code). Access tokens live
// ACCESS_TOKEN_SECONDS (default 3600) and come with refresh tokens. Prints {"url": ".../mcp"} once it listens on 127.0.0.1.
import { randomUUID } from 'node:crypto';
import express from 'express';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { mcpAuthRouter, getOAuthProtectedResourceMetadataUrl } from '@modelcontextprotocol/sdk/server/auth/router.js';
import { requireBearerAuth } from '@modelcontextprotocol/sdk/server/auth/middleware/bearerAuth.js';
import { InvalidTokenError } from '@modelcontextprotocol/sdk/server/auth/errors.js';
import { DemoInMemoryAuthProvider } from '@modelcontextprotocol/sdk/examples/server/demoInMemoryOAuthProvider.js';

const lifetime = 3600;

class RefreshingProvider extends DemoInMemoryAuthProvider {
  refreshTokens = new Map();
  counts = { issued: 0, refreshed: 0 };

  issue(clientId, scopes, resource) {
    const token = randomUUID();
    const refresh = randomUUID();
    this.tokens.set(token, { token, clientId, scopes, expiresAt: Date.now() + lifetime * 1000, resource, type: 'access' });
    this.refreshTokens.set(refresh, { clientId, scopes, resource });
    this.counts.issued++;
    return { access_token: token, token_type: 'bearer', expires_in: lifetime, refresh_token: refresh, scope: scopes.join(' ') };
  }

  async exchangeAuthorizationCode(client, code, verifier, redirectUri, resource) {
    const issued = await super.exchangeAuthorizationCode(client, code, verifier, redirectUri, resource);
    const data = this.tokens.get(issued.access_token);
    this.tokens.delete(issued.access_token);
    return this.issue(client.client_id, data.scopes, data.resource);
  }

  // The SDK's handler has checked the redirect already, any loopback port allowed (RFC 8252); the demo wants it exact.
  async authorize(client, params, res) {
    return super.authorize({ ...client, redirect_uris: [...client.redirect_uris, params.redirectUri] }, params, res);
  }

  // An expired token is a 401 (the demo throws a plain error, which the middleware answers with a 500).
  async verifyAccessToken(token) {
    try {
      return await super.verifyAccessToken(token);
    } catch {
      throw new InvalidTokenError('The access token is invalid or has expired.');
    }
  }

  async exchangeRefreshToken(client, refreshToken) {
    const data = this.refreshTokens.get(refreshToken);
    if (!data || data.clientId !== client.client_id) throw new Error('unknown refresh token');
    this.refreshTokens.delete(refreshToken);
    this.counts.refreshed++;
    return this.issue(client.client_id, data.scopes, data.resource);
  }
}

const provider = new RefreshingProvider();
// PRE_REGISTERED_CLIENT=id or id:secret: an authorization server without dynamic registration, which knows only
// that client (registered for the loopback redirect, any port, as RFC 8252 has it).
if (process.env.PRE_REGISTERED_CLIENT) {
  const [clientId, clientSecret] = process.env.PRE_REGISTERED_CLIENT.split(':');
  const client = {
    client_id: clientId,
    ...(clientSecret ? { client_secret: clientSecret } : {}),
    redirect_uris: ['http://127.0.0.1/callback'],
    token_endpoint_auth_method: clientSecret ? 'client_secret_post' : 'none',
    grant_types: ['authorization_code', 'refresh_token'],
    response_types: ['code'],
  };
  provider.clientsStore = { getClient: async (id) => (id === clientId ? client : undefined) };
}
const app = express();
const listener = app.listen(0, '127.0.0.1', () => {
  const base = new URL(`http://127.0.0.1:${listener.address().port}`);
  const mcpUrl = new URL('/mcp', base);
  app.use(mcpAuthRouter({ provider, issuerUrl: base, resourceServerUrl: mcpUrl, scopesSupported: ['mcp:tools'] }));
  app.get('/counts', (_request, response) => response.json(provider.counts));
  // The test's clock: every access token issued so far has expired (no test waits for one to run out).
  app.post('/expire', (_request, response) => {
    for (const data of provider.tokens.values()) data.expiresAt = Date.now() - 1_000;
    response.json({ expired: provider.tokens.size });
  });
  const bearer = requireBearerAuth({ verifier: provider, resourceMetadataUrl: getOAuthProtectedResourceMetadataUrl(mcpUrl) });
  app.get('/api/whoami', bearer, (request, response) => response.json({ client: request.auth.clientId, scopes: request.auth.scopes }));
  app.post('/mcp', bearer, express.json(), async (request, response) => {
    const server = new McpServer({ name: 'oauth-protected', version: '1.0.0' });
    server.registerTool('whoami', { description: 'Says which OAuth client called.' }, async (extra) => ({
      content: [{ type: 'text', text: `client ${extra.authInfo?.clientId ?? 'unknown'}` }],
    }));
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    response.on('close', () => {
      transport.close();
      server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(request, response, request.body);
  });
  process.stdout.write(`${JSON.stringify({ url: mcpUrl.href, base: base.href })}\n`);
});

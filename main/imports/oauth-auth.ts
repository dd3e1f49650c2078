import type { HttpImpl } from '../../shared/schemas/http-impl.js';

/** How an API description says its OAuth 2 works: the grant and its endpoints, in whichever format's words were translated. */
export interface DescribedOAuth {
  grant: 'authorizationCode' | 'clientCredentials' | 'other';
  authorizationUrl?: string | undefined;
  tokenUrl?: string | undefined;
  scopes: string[];
}

const isEndpoint = (url: string | undefined): url is string => url !== undefined && /^https?:\/\/[^/?#]+/.test(url) && url.length <= 2048;

/**
 * The connection an imported OAuth 2 scheme becomes: a person's sign-in in
 * the browser for the authorization code, the client's own for client
 * credentials, its ID (and secret) kept as named secrets; null for what
 * Toolbelt cannot do itself (implicit, password, relative endpoints).
 */
export function importedOAuth(described: DescribedOAuth, secret: (words: string, description: string) => string, where: string): HttpImpl['auth'] | null {
  const scope = described.scopes.length ? { scope: described.scopes.join(' ').slice(0, 2_000) } : {};
  if (described.grant === 'authorizationCode' && isEndpoint(described.authorizationUrl) && isEndpoint(described.tokenUrl)) {
    return { kind: 'oauth2', flow: 'authorizationCode', authorizationUrl: described.authorizationUrl, tokenUrl: described.tokenUrl, clientId: secret('client id', `The OAuth client ID you registered for ${where}`), ...scope };
  }
  if (described.grant === 'clientCredentials' && isEndpoint(described.tokenUrl)) {
    return {
      kind: 'oauth2',
      flow: 'clientCredentials',
      tokenUrl: described.tokenUrl,
      clientId: secret('client id', `The OAuth client ID for ${where}`),
      clientSecret: secret('client secret', `The OAuth client secret for ${where}`),
      ...scope,
    };
  }
  return null;
}

/** The sentence for an imported sign-in in the browser: what to register and where to go next. */
export function browserSignInNote(where: string): string {
  return `${where} signs in in the browser (OAuth 2 authorization code): register an app with the provider whose redirect URL is http://127.0.0.1:PORT/callback, put its client ID in the secret, add its client secret in the connection if it has one, then select Sign in under the bundle.`;
}

import * as oauth from 'oauth4webapi';
import { ToolbeltError } from '../../../shared/errors.js';
import type { SignInView } from '../../../shared/schemas/oauth.js';
import { inBackground } from '../../common/background.js';
import { SignInEnded, type OAuthCallbackServer } from './oauth-callback.js';
import type { Logger } from '../../log.js';
import { InvokeFailure } from '../invoke-error.js';
import { checkedTokenUrl, oauthParties, tokenProblem, tokenSecretName, type OAuthAuth, type OAuthClient, type OAuthTokens } from './oauth-tokens.js';

export type BrowserSignInClient = OAuthClient & { auth: Extract<OAuthAuth, { flow: 'authorizationCode' }> };

interface Attempt {
  authorizationUrl: string;
  redirectUri: string;
  /** Set when it ended without tokens. */
  failure?: string;
}

/**
 * A person's OAuth 2 sign-in for HTTP tools (authorization code with PKCE,
 * RFC 7636, through the loopback redirect of RFC 8252): start gives the page
 * to open in the browser; when the browser comes back, the code is traded
 * for tokens in the background and kept by OAuthTokens. The state of each
 * client's sign-in is what the connection dialog shows.
 */
export class OAuthSignIns {
  /** By token secret name: the sign-in that is under way or last failed. */
  private readonly attempts = new Map<string, Attempt>();

  constructor(
    private readonly deps: {
      tokens: OAuthTokens;
      callbacks: OAuthCallbackServer;
      log: Logger;
    },
  ) {}

  async start(client: BrowserSignInClient): Promise<SignInView> {
    const { auth } = client;
    asToolbeltError(() => checkedTokenUrl(client));
    const redirectUri = await this.deps.callbacks.start(auth.redirectPort, auth.redirectPort !== undefined).catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'EADDRINUSE') {
        throw new ToolbeltError('port_in_use', `Port ${auth.redirectPort} on 127.0.0.1, where the provider sends you back after signing in, is used by another program. Close that program, or register another port with the provider and set it as the redirect port.`);
      }
      throw error;
    });
    const verifier = oauth.generateRandomCodeVerifier();
    const state = oauth.generateRandomState();
    const authorizationUrl = new URL(auth.authorizationUrl);
    authorizationUrl.searchParams.set('response_type', 'code');
    authorizationUrl.searchParams.set('client_id', client.clientId);
    authorizationUrl.searchParams.set('redirect_uri', redirectUri);
    authorizationUrl.searchParams.set('code_challenge', await oauth.calculatePKCECodeChallenge(verifier));
    authorizationUrl.searchParams.set('code_challenge_method', 'S256');
    authorizationUrl.searchParams.set('state', state);
    if (auth.scope) authorizationUrl.searchParams.set('scope', auth.scope);
    if (auth.audience) authorizationUrl.searchParams.set('audience', auth.audience);

    const key = tokenSecretName(auth, client.clientId);
    const attempt: Attempt = { authorizationUrl: authorizationUrl.href, redirectUri };
    this.attempts.set(key, attempt);
    const finished = (async () => {
      const { query } = await this.deps.callbacks.expect(state);
      const parties = oauthParties(client);
      const response = await oauth.authorizationCodeGrantRequest(
        parties.server,
        parties.client,
        parties.clientAuth,
        // The whole query: its `iss` is checked against the server's issuer (RFC 9207) where the server sends one.
        oauth.validateAuthResponse(parties.server, parties.client, query, state),
        redirectUri,
        verifier,
        parties.insecure,
      );
      const tokens = await oauth.processAuthorizationCodeResponse(parties.server, parties.client, response);
      // A later sign-in of the same client replaced this one: its answer is the one kept.
      if (this.attempts.get(key) !== attempt) return;
      await this.deps.tokens.save(client, tokens);
      this.attempts.delete(key);
    })();
    inBackground(
      finished.catch((error: unknown) => {
        if (this.attempts.get(key) === attempt) attempt.failure = error instanceof SignInEnded ? error.message : `the token endpoint did not give a token: ${tokenProblem(error)}`;
      }),
      (error) => this.deps.log.error('finishing an OAuth sign-in failed unexpectedly', { error: String(error) }),
    );
    return this.state(client);
  }

  async state(client: BrowserSignInClient): Promise<SignInView> {
    const attempt = this.attempts.get(tokenSecretName(client.auth, client.clientId));
    const kept = await this.deps.tokens.state(client);
    const redirectUri = attempt?.redirectUri ?? (client.auth.redirectPort ? `http://127.0.0.1:${client.auth.redirectPort}/callback` : undefined);
    const base = redirectUri ? { redirectUri } : {};
    if (attempt && !attempt.failure) return { ...base, state: 'waiting', authorizationUrl: attempt.authorizationUrl };
    if (kept.signedIn) return { ...base, state: 'signed-in', expiresAt: new Date(kept.expiresAt).toISOString(), refreshable: kept.refreshable };
    if (attempt?.failure) return { ...base, state: 'failed', error: `Signing in failed: ${attempt.failure}. Sign in again.` };
    return { ...base, state: 'signed-out' };
  }

  async signOut(client: BrowserSignInClient): Promise<SignInView> {
    this.attempts.delete(tokenSecretName(client.auth, client.clientId));
    await this.deps.tokens.forget(client);
    return this.state(client);
  }
}

function asToolbeltError<T>(step: () => T): T {
  try {
    return step();
  } catch (error) {
    if (error instanceof InvokeFailure && error.code === 'host_not_allowed') throw new ToolbeltError('host_not_allowed', error.message);
    throw error;
  }
}

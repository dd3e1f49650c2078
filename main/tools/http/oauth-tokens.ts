import { createHash } from 'node:crypto';
import * as oauth from 'oauth4webapi';
import type { HttpImpl } from '../../../shared/schemas/http-impl.js';
import type { TraceEntry } from '../../../shared/schemas/invocation.js';
import type { SecretSection } from '../../secrets/secret-store.js';
import { InvokeFailure } from '../invoke-error.js';
import { allowlistEntryFor, isHostAllowed } from './allowed-hosts.js';

export type OAuthAuth = Extract<NonNullable<HttpImpl['auth']>, { kind: 'oauth2' }>;

/** A token this close to its end is bought again before a call rather than sent to fail. */
const REFRESH_MARGIN_MS = 60_000;
/** A token endpoint that says nothing about expiry: kept this long. */
const DEFAULT_LIFETIME_MS = 3_600_000;

interface StoredToken {
  accessToken: string;
  expiresAt: number;
  /** Authorization code flow: what buys the next access token without the person. */
  refreshToken?: string;
}

/** The client, with its templates already filled from secrets. */
export interface OAuthClient {
  auth: OAuthAuth;
  clientId: string;
  clientSecret: string | undefined;
  allowedHosts: readonly string[];
}

interface TokenRequest extends OAuthClient {
  signal: AbortSignal;
  /** Skip what is kept: the API refused the kept token. */
  fresh: boolean;
  /** Where the token step goes when the call is traced. */
  trace?: TraceEntry[];
  /** Who to sign in to, for the sentence that asks for it. */
  signInWhere: string;
}

type SignInState = { signedIn: true; expiresAt: number; refreshable: boolean } | { signedIn: false };

/** The secret that keeps a client's tokens: one per endpoint, client, scope and audience (and flow: a person's tokens are not a machine's). */
export function tokenSecretName(auth: OAuthAuth, clientId: string): string {
  const parts = [auth.tokenUrl, clientId, auth.scope ?? '', auth.audience ?? ''];
  if (auth.flow === 'authorizationCode') parts.unshift('authorizationCode');
  return `OAUTH_TOKEN_${createHash('sha256').update(parts.join('\0')).digest('hex').slice(0, 24).toUpperCase()}`;
}

/** oauth4webapi's view of the provider and the client. */
export function oauthParties(client: OAuthClient): { server: oauth.AuthorizationServer; client: oauth.Client; clientAuth: oauth.ClientAuth; insecure: Record<symbol, boolean> } {
  const { auth } = client;
  const tokenUrl = new URL(auth.tokenUrl);
  const server: oauth.AuthorizationServer = {
    issuer: tokenUrl.origin,
    token_endpoint: tokenUrl.href,
    ...(auth.flow === 'authorizationCode' ? { authorization_endpoint: auth.authorizationUrl } : {}),
  };
  const clientAuth =
    client.clientSecret === undefined ? oauth.None() : auth.clientAuth === 'post' ? oauth.ClientSecretPost(client.clientSecret) : oauth.ClientSecretBasic(client.clientSecret);
  // A token endpoint on plain http is the person's choice (a local one, a test server); https is not required of it.
  return { server, client: { client_id: client.clientId }, clientAuth, insecure: tokenUrl.protocol === 'http:' ? { [oauth.allowInsecureRequests]: true } : {} };
}

/** The token endpoint, refused unless it is an allowed host. */
export function checkedTokenUrl(client: OAuthClient): URL {
  const url = new URL(client.auth.tokenUrl);
  if (!isHostAllowed(url, client.allowedHosts)) {
    throw new InvokeFailure('host_not_allowed', `The token endpoint ${url.host} is not an allowed host. Allow ${allowlistEntryFor(url)} in Settings → Allowed hosts.`, { host: allowlistEntryFor(url) });
  }
  return url;
}

/**
 * OAuth 2 access tokens through oauth4webapi. Client credentials: bought at
 * the token endpoint. Authorization code: given by a person's sign-in
 * (oauth-sign-in.ts) and renewed with the refresh token. Either way kept as
 * secrets (encrypted like any other, named by tokenSecretName) and in
 * memory, bought again a minute before they end or when the API refuses
 * one. Concurrent calls share one purchase.
 */
export class OAuthTokens {
  private readonly pending = new Map<string, Promise<StoredToken>>();
  /** Read from the secret store once per process, not on every call. */
  private readonly memory = new Map<string, StoredToken>();

  constructor(
    private readonly secrets: SecretSection,
    private readonly now: () => number,
  ) {}

  async token(request: TokenRequest): Promise<string> {
    const key = tokenSecretName(request.auth, request.clientId);
    const kept = this.memory.get(key) ?? (await this.kept(key));
    if (!request.fresh && kept && kept.expiresAt - REFRESH_MARGIN_MS > this.now()) return kept.accessToken;
    if (request.auth.flow === 'authorizationCode' && !kept?.refreshToken) {
      throw new InvokeFailure(
        'sign_in_required',
        kept ? `The sign-in to ${request.signInWhere} has ended and cannot be renewed without you. Sign in again from its connection.` : `Sign in to ${request.signInWhere} first, from its connection.`,
      );
    }
    let purchase = this.pending.get(key);
    if (!purchase) {
      purchase = this.buy(request, key, kept?.refreshToken).finally(() => this.pending.delete(key));
      this.pending.set(key, purchase);
    }
    return (await purchase).accessToken;
  }

  /** Whether a person's sign-in is kept, and until when its access token runs. */
  async state(client: OAuthClient): Promise<SignInState> {
    const key = tokenSecretName(client.auth, client.clientId);
    const kept = this.memory.get(key) ?? (await this.kept(key));
    return kept ? { signedIn: true, expiresAt: kept.expiresAt, refreshable: kept.refreshToken !== undefined } : { signedIn: false };
  }

  /** What a finished sign-in (or a refresh) gave, kept. */
  async save(client: OAuthClient, result: oauth.TokenEndpointResponse, previousRefresh?: string): Promise<StoredToken> {
    const key = tokenSecretName(client.auth, client.clientId);
    const refreshToken = result.refresh_token ?? previousRefresh;
    const stored: StoredToken = {
      accessToken: result.access_token,
      expiresAt: this.now() + (result.expires_in ? result.expires_in * 1000 : DEFAULT_LIFETIME_MS),
      ...(refreshToken ? { refreshToken } : {}),
    };
    await this.secrets.put(key, JSON.stringify(stored));
    this.memory.set(key, stored);
    return stored;
  }

  async forget(client: OAuthClient): Promise<void> {
    const key = tokenSecretName(client.auth, client.clientId);
    this.memory.delete(key);
    await this.secrets.delete(key);
  }

  private async kept(key: string): Promise<StoredToken | null> {
    const text = await this.secrets.resolve(key);
    if (!text) return null;
    try {
      const stored = JSON.parse(text) as Partial<StoredToken>;
      if (typeof stored.accessToken !== 'string' || typeof stored.expiresAt !== 'number') return null;
      if (stored.refreshToken !== undefined && typeof stored.refreshToken !== 'string') return null;
      this.memory.set(key, stored as StoredToken);
      return stored as StoredToken;
    } catch {
      return null;
    }
  }

  private async buy(request: TokenRequest, key: string, refreshToken: string | undefined): Promise<StoredToken> {
    const { auth } = request;
    const url = checkedTokenUrl(request);
    const parties = oauthParties(request);
    const grant = refreshToken ? 'refresh_token' : 'client_credentials';
    const started = this.now();
    const entry: TraceEntry | undefined = request.trace
      ? {
          attempt: 1,
          step: 'token',
          startedAt: new Date(started).toISOString(),
          durationMs: 0,
          request: {
            method: 'POST',
            url: url.href,
            headers: { ...(request.clientSecret !== undefined && auth.clientAuth !== 'post' ? { authorization: '•••' } : {}), 'content-type': 'application/x-www-form-urlencoded' },
            bodyPreview: `grant_type=${grant}${refreshToken ? '&refresh_token=•••' : ''}${auth.scope ? `&scope=${auth.scope}` : ''}`,
          },
        }
      : undefined;
    if (entry) request.trace!.push(entry);
    try {
      const options = { signal: request.signal, ...parties.insecure };
      let response: Response;
      if (refreshToken) {
        const parameters = auth.scope ? { scope: auth.scope } : undefined;
        response = await oauth.refreshTokenGrantRequest(parties.server, parties.client, parties.clientAuth, refreshToken, { ...options, ...(parameters ? { additionalParameters: parameters } : {}) });
      } else {
        const parameters: Record<string, string> = {};
        if (auth.scope) parameters.scope = auth.scope;
        if (auth.audience) parameters.audience = auth.audience;
        response = await oauth.clientCredentialsGrantRequest(parties.server, parties.client, parties.clientAuth, parameters, options);
      }
      if (entry) entry.response = { status: response.status, headers: {}, size: 0, bodyPreview: response.ok ? '(a token, not shown)' : '', truncated: false };
      const result = refreshToken
        ? await oauth.processRefreshTokenResponse(parties.server, parties.client, response)
        : await oauth.processClientCredentialsResponse(parties.server, parties.client, response);
      return await this.save(request, result, refreshToken);
    } catch (error) {
      if (error instanceof InvokeFailure) throw error;
      if (request.signal.aborted) throw new InvokeFailure('cancelled', 'The call was cancelled while its token was being fetched.');
      const failure = refreshToken
        ? new InvokeFailure('sign_in_required', `The sign-in to ${request.signInWhere} could not be renewed (${tokenProblem(error)}). Sign in again from its connection.`)
        : new InvokeFailure('auth_failed', `The token endpoint ${url.host} did not give a token: ${tokenProblem(error)}. Check the client ID and secret.`);
      if (entry) entry.error = { code: failure.code, message: failure.message };
      throw failure;
    } finally {
      if (entry) entry.durationMs = Math.max(0, this.now() - started);
    }
  }
}

/** What went wrong, without anything the endpoint echoed back (it may hold the secret). */
export function tokenProblem(error: unknown): string {
  if (error instanceof oauth.ResponseBodyError) return `${error.error}${error.status ? ` (HTTP ${error.status})` : ''}`;
  if (error instanceof oauth.WWWAuthenticateChallengeError) return `HTTP ${error.status}`;
  if (error instanceof TypeError) return 'it could not be reached';
  return error instanceof Error ? error.constructor.name : 'an unexpected answer';
}

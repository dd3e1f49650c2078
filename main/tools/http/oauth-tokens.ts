import { createHash } from 'node:crypto';
import * as oauth from 'oauth4webapi';
import type { HttpImpl } from '../../../shared/schemas/http-impl.js';
import type { TraceEntry } from '../../../shared/schemas/invocation.js';
import type { SecretStore } from '../../secrets/secret-store.js';
import { InvokeFailure } from '../invoke-error.js';
import { allowlistEntryFor, isHostAllowed } from './allowed-hosts.js';

type OAuthAuth = Extract<NonNullable<HttpImpl['auth']>, { kind: 'oauth2' }>;

/** A token this close to its end is bought again before a call rather than sent to fail. */
const REFRESH_MARGIN_MS = 60_000;
/** A token endpoint that says nothing about expiry: kept this long. */
const DEFAULT_LIFETIME_MS = 3_600_000;

interface StoredToken {
  accessToken: string;
  expiresAt: number;
}

export interface TokenRequest {
  auth: OAuthAuth;
  clientId: string;
  clientSecret: string;
  allowedHosts: readonly string[];
  signal: AbortSignal;
  /** Skip what is kept: the API refused the kept token. */
  fresh: boolean;
  /** Where the token step goes when the call is traced. */
  trace?: TraceEntry[];
}

/**
 * Access tokens of the OAuth 2 client-credentials flow, through oauth4webapi:
 * bought at the token endpoint (an allowed host), kept as secrets (encrypted
 * like any other, named OAUTH_TOKEN_<hash of endpoint, client and scope>)
 * and in memory, bought again a minute before they end or when the API
 * refuses one. Concurrent calls share one purchase.
 */
export class OAuthTokens {
  private readonly pending = new Map<string, Promise<StoredToken>>();
  /** Read from the secret store once per process, not on every call. */
  private readonly memory = new Map<string, StoredToken>();

  constructor(
    private readonly secrets: SecretStore,
    private readonly now: () => number,
  ) {}

  async token(request: TokenRequest): Promise<string> {
    const key = `OAUTH_TOKEN_${createHash('sha256').update([request.auth.tokenUrl, request.clientId, request.auth.scope ?? '', request.auth.audience ?? ''].join('\0')).digest('hex').slice(0, 24).toUpperCase()}`;
    if (!request.fresh) {
      const kept = this.memory.get(key) ?? (await this.kept(key));
      if (kept && kept.expiresAt - REFRESH_MARGIN_MS > this.now()) return kept.accessToken;
    }
    let purchase = this.pending.get(key);
    if (!purchase) {
      purchase = this.buy(request, key).finally(() => this.pending.delete(key));
      this.pending.set(key, purchase);
    }
    return (await purchase).accessToken;
  }

  private async kept(key: string): Promise<StoredToken | null> {
    const text = await this.secrets.resolve(key);
    if (!text) return null;
    try {
      const stored = JSON.parse(text) as Partial<StoredToken>;
      if (typeof stored.accessToken !== 'string' || typeof stored.expiresAt !== 'number') return null;
      this.memory.set(key, stored as StoredToken);
      return stored as StoredToken;
    } catch {
      return null;
    }
  }

  private async buy(request: TokenRequest, key: string): Promise<StoredToken> {
    const { auth } = request;
    const url = new URL(auth.tokenUrl);
    if (!isHostAllowed(url, request.allowedHosts)) {
      throw new InvokeFailure('host_not_allowed', `The token endpoint ${url.host} is not an allowed host. Allow ${allowlistEntryFor(url)} in Settings → Allowed hosts.`, { host: allowlistEntryFor(url) });
    }
    const server: oauth.AuthorizationServer = { issuer: url.origin, token_endpoint: url.href };
    const client: oauth.Client = { client_id: request.clientId };
    const clientAuth = auth.clientAuth === 'post' ? oauth.ClientSecretPost(request.clientSecret) : oauth.ClientSecretBasic(request.clientSecret);
    const parameters: Record<string, string> = {};
    if (auth.scope) parameters.scope = auth.scope;
    if (auth.audience) parameters.audience = auth.audience;
    const started = this.now();
    const entry: TraceEntry | undefined = request.trace
      ? { attempt: 1, step: 'token', startedAt: new Date(started).toISOString(), durationMs: 0, request: { method: 'POST', url: url.href, headers: { authorization: '•••', 'content-type': 'application/x-www-form-urlencoded' }, bodyPreview: `grant_type=client_credentials${auth.scope ? `&scope=${auth.scope}` : ''}` } }
      : undefined;
    if (entry) request.trace!.push(entry);
    try {
      const response = await oauth.clientCredentialsGrantRequest(server, client, clientAuth, parameters, {
        signal: request.signal,
        // A token endpoint on plain http is the person's choice (a local one, a test server); https is not required of it.
        ...(url.protocol === 'http:' ? { [oauth.allowInsecureRequests]: true } : {}),
      });
      if (entry) entry.response = { status: response.status, headers: {}, size: 0, bodyPreview: response.ok ? '(a token, not shown)' : '', truncated: false };
      const result = await oauth.processClientCredentialsResponse(server, client, response);
      const stored = { accessToken: result.access_token, expiresAt: this.now() + (result.expires_in ? result.expires_in * 1000 : DEFAULT_LIFETIME_MS) };
      this.memory.set(key, stored);
      await this.secrets.put(key, JSON.stringify(stored));
      return stored;
    } catch (error) {
      if (error instanceof InvokeFailure) throw error;
      if (request.signal.aborted) throw new InvokeFailure('cancelled', 'The call was cancelled while its token was being fetched.');
      const failure = new InvokeFailure('auth_failed', `The token endpoint ${url.host} did not give a token: ${tokenProblem(error)}. Check the client ID and secret.`);
      if (entry) entry.error = { code: failure.code, message: failure.message };
      throw failure;
    } finally {
      if (entry) entry.durationMs = Math.max(0, this.now() - started);
    }
  }
}

/** What went wrong, without anything the endpoint echoed back (it may hold the secret). */
function tokenProblem(error: unknown): string {
  if (error instanceof oauth.ResponseBodyError) return `${error.error}${error.status ? ` (HTTP ${error.status})` : ''}`;
  if (error instanceof oauth.WWWAuthenticateChallengeError) return `HTTP ${error.status}`;
  if (error instanceof TypeError) return 'it could not be reached';
  return error instanceof Error ? error.constructor.name : 'an unexpected answer';
}

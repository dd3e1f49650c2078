import { randomBytes } from 'node:crypto';
import type { OAuthClientProvider, OAuthDiscoveryState, OAuthClientInformationMixed, OAuthClientMetadata, OAuthTokens } from '@modelcontextprotocol/client';
import type { OAuthRecord, OAuthVault } from './oauth-vault.js';

/**
 * The SDK's OAuth client for one remote server: it discovers the server's
 * authorization server, registers Toolbelt as a public client (dynamic
 * registration), uses PKCE and the loopback redirect, keeps tokens in the
 * vault and refreshes them. Toolbelt's part is where things are kept and
 * what "send the person to the sign-in page" means: remembering the URL for
 * the window's Sign in button.
 */
export class McpOAuthProvider implements OAuthClientProvider {
  /** The page the person must open to sign in, while a sign-in waits. */
  authorizationUrl: URL | null = null;
  private record: OAuthRecord = {};
  private currentState = '';

  constructor(
    private readonly server: string,
    private readonly vault: OAuthVault,
    readonly redirectUrl: string,
    record: OAuthRecord,
    /**
     * Who Toolbelt is at the sign-in server, when the person said (the server's config `oauth`): a client they
     * registered by hand, used as it is and never registered again; or the https URL of a client ID metadata document
     * they host, which the SDK uses as the client id where the sign-in server accepts such documents.
     */
    client: { preRegistered?: { client_id: string; client_secret?: string }; metadataUrl?: string } = {},
  ) {
    this.record = record;
    this.preRegistered = client.preRegistered;
    this.clientMetadataUrl = client.metadataUrl;
  }

  private readonly preRegistered: { client_id: string; client_secret?: string } | undefined;
  readonly clientMetadataUrl: string | undefined;

  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: 'Toolbelt',
      // A desktop app on a loopback redirect: a native client (OpenID Connect Registration, asked for by MCP 2026-07-28).
      application_type: 'native',
      redirect_uris: [this.redirectUrl],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: this.preRegistered?.client_secret ? 'client_secret_post' : 'none',
    };
  }

  /** A fresh, unguessable state per sign-in: the redirect proves it answers ours. */
  state(): string {
    this.currentState = randomBytes(24).toString('base64url');
    return this.currentState;
  }

  get pendingState(): string {
    return this.currentState;
  }

  /**
   * The registration is kept even when it names another loopback port (a
   * refresh does not use the redirect); only a sign-in in the browser needs
   * it to match, and `registeredElsewhere` then says to register again.
   */
  clientInformation(): OAuthClientInformationMixed | undefined {
    return this.preRegistered ?? this.record.client;
  }

  /** A sign-in was asked for with a registration for another redirect: the server would refuse it. */
  get registeredElsewhere(): boolean {
    if (this.preRegistered) return false;
    const uris = redirectsOf(this.record);
    return uris.length > 0 && !uris.includes(this.redirectUrl);
  }

  async saveClientInformation(client: OAuthClientInformationMixed): Promise<void> {
    if (this.preRegistered) return;
    await this.save({ ...this.record, client });
  }

  tokens(): OAuthTokens | undefined {
    return this.record.tokens;
  }

  async saveTokens(tokens: OAuthTokens): Promise<void> {
    this.authorizationUrl = null;
    // Where to sign in is looked up again at the next sign-in the server asks for, not taken from what was found: a
    // server that refuses fresh tokens may have moved to another sign-in server (its metadata names a new one, where
    // Toolbelt then registers anew). The SDK leaves this to the host ("on repeated 401s").
    const { verifier: _done, discovery: _found, ...rest } = this.record;
    await this.save({ ...rest, tokens });
  }

  redirectToAuthorization(authorizationUrl: URL): void {
    this.authorizationUrl = authorizationUrl;
  }

  async saveCodeVerifier(verifier: string): Promise<void> {
    await this.save({ ...this.record, verifier });
  }

  codeVerifier(): string {
    if (!this.record.verifier) throw new Error('No sign-in is in progress for this server.');
    return this.record.verifier;
  }

  /**
   * Where the sign-in was found (RFC 9728 metadata, possibly at a path of
   * the server's own, and the authorization server): finishing a sign-in and
   * refreshing later use it instead of guessing the standard places again.
   */
  async saveDiscoveryState(discovery: OAuthDiscoveryState): Promise<void> {
    await this.save({ ...this.record, discovery });
  }

  discoveryState(): OAuthDiscoveryState | undefined {
    return this.record.discovery;
  }

  async invalidateCredentials(scope: 'all' | 'client' | 'tokens' | 'verifier' | 'discovery'): Promise<void> {
    const { client, tokens, verifier, discovery } = this.record;
    const keep: OAuthRecord =
      scope === 'all'
        ? {}
        : {
            ...(scope === 'client' ? {} : { client }),
            ...(scope === 'tokens' ? {} : { tokens }),
            ...(scope === 'verifier' ? {} : { verifier }),
            ...(scope === 'discovery' ? {} : { discovery }),
          };
    await this.save(Object.fromEntries(Object.entries(keep).filter(([, value]) => value !== undefined)));
  }

  private async save(record: OAuthRecord): Promise<void> {
    this.record = record;
    await this.vault.update(this.server, () => record);
  }
}

function redirectsOf(record: OAuthRecord): string[] {
  const uris = (record.client as { redirect_uris?: unknown } | undefined)?.redirect_uris;
  return Array.isArray(uris) ? uris.filter((uri): uri is string => typeof uri === 'string') : [];
}

/** The loopback port a saved registration names, so the listener can take it again and the registration stays good. */
export function registeredPort(record: OAuthRecord): number | undefined {
  const uri = redirectsOf(record)[0];
  const port = uri ? Number(URL.canParse(uri) ? new URL(uri).port : NaN) : NaN;
  return Number.isInteger(port) && port > 0 ? port : undefined;
}

import path from 'node:path';
import type { OAuthDiscoveryState, OAuthClientInformationMixed, OAuthTokens } from '@modelcontextprotocol/client';
import { withFileLock } from '../common/file-lock.js';
import { readJsonFile, stringifyStable, writeFileAtomically } from '../common/json-files.js';
import type { Logger } from '../log.js';
import type { Cipher } from '../secrets/cipher.js';
import type { StoreLayout } from '../store/layout.js';

/** What signing in to one remote server leaves behind: the registered client, its tokens, and a PKCE verifier in flight. */
export interface OAuthRecord {
  client?: OAuthClientInformationMixed;
  tokens?: OAuthTokens;
  verifier?: string;
  /** Where the server's sign-in was found (its resource metadata URL, its authorization server): kept for finishing and refreshing. */
  discovery?: OAuthDiscoveryState;
}

type VaultFile = { servers: Record<string, string> };

/**
 * OAuth state of remote MCP servers, in <dataDir>/mcp-oauth.json with every
 * entry encrypted by the same cipher as secrets: tokens are secrets and are
 * never written, logged or shown in clear. One lock for the file, so two
 * processes signing in at once do not lose each other's tokens.
 */
export class OAuthVault {
  private readonly file: string;

  constructor(
    private readonly layout: StoreLayout,
    private readonly cipher: Cipher,
    private readonly log: Logger,
  ) {
    this.file = path.join(layout.root, 'mcp-oauth.json');
  }

  async get(server: string): Promise<OAuthRecord> {
    const sealed = (await this.read()).servers[server];
    if (!sealed) return {};
    try {
      return JSON.parse(await this.cipher.decrypt(sealed)) as OAuthRecord;
    } catch (error) {
      // A key that changed (another machine's file) is a sign-in to do again, not a crash.
      this.log.warn('saved MCP sign-in cannot be read; signing in again', { server, error: String(error) });
      return {};
    }
  }

  async update(server: string, change: (record: OAuthRecord) => OAuthRecord): Promise<void> {
    await withFileLock(this.layout.lockTarget('mcp-oauth'), async () => {
      const file = await this.read();
      const next = change(await this.get(server));
      const servers = { ...file.servers };
      if (next.client || next.tokens || next.verifier || next.discovery) servers[server] = await this.cipher.encrypt(JSON.stringify(next));
      else delete servers[server];
      await writeFileAtomically(this.file, stringifyStable({ servers }, ['servers']), { within: this.layout.root });
    });
  }

  forget(server: string): Promise<void> {
    return this.update(server, () => ({}));
  }

  private async read(): Promise<VaultFile> {
    const read = await readJsonFile(this.file);
    const servers = read.ok ? (read.value as Partial<VaultFile> | null)?.servers : undefined;
    if (!read.ok && !read.missing) this.log.warn('mcp-oauth.json cannot be read; remote servers will ask to sign in again', { reason: read.reason });
    return { servers: servers && typeof servers === 'object' ? Object.fromEntries(Object.entries(servers).filter(([, value]) => typeof value === 'string')) : {} };
  }
}

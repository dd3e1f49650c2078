import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { isUuidV7 } from '../../shared/schemas/ids.js';
import { fileStamp } from '../common/file-stamp.js';
import { withFileLock } from '../common/file-lock.js';
import { readJsonFile, stringifyStable, writeFileAtomically } from '../common/json-files.js';
import type { Logger } from '../log.js';
import type { Cipher } from '../secrets/cipher.js';
import type { StoreLayout } from '../store/layout.js';
import type { ToolDiscovery } from '../../shared/schemas/chat.js';

export const DEFAULT_MCP_PORT = 7447;

export interface ShareConfig {
  enabled: boolean;
  port: number;
  sharedBundleIDs: string[];
  /** Clients get every shared tool listed, or tool_search and what they find (`auto`: search past 30 tools). */
  discovery: ToolDiscovery;
}

interface ShareFile extends ShareConfig {
  /** The bearer token, encrypted by the secrets cipher: it is a credential and never written in clear. */
  token?: string;
}

const KEY_ORDER = ['enabled', 'port', 'sharedBundleIDs', 'discovery', 'token'] as const;
const DISCOVERIES: readonly unknown[] = ['all', 'search', 'auto'];

/**
 * What Toolbelt's MCP server shares and where it listens, in
 * <dataDir>/mcp-server.json: off and sharing nothing until the person says
 * otherwise. One lock for the file, since the stdio command may read it from
 * another process while the app changes it.
 */
export class ShareConfigFile {
  private readonly file: string;
  /** The settings last read, with what the file was then (inode, times, size): read again only when that changes. */
  private known: { stamp: string; config: ShareConfig } | null = null;

  constructor(
    private readonly layout: StoreLayout,
    private readonly cipher: Cipher,
    private readonly log: Logger,
  ) {
    this.file = path.join(layout.root, 'mcp-server.json');
  }

  async read(): Promise<ShareConfig> {
    const { token: _token, ...config } = await this.readFile();
    return config;
  }

  /**
   * The settings as they are on disk now. Another process serving the same
   * folder (the stdio command next to the app) may have changed them: a
   * bundle someone stops sharing must stop being served everywhere.
   */
  async current(): Promise<ShareConfig> {
    // Asked on every call a client makes: read again only when the file changed.
    const stamp = fileStamp(this.file);
    if (stamp === null) return this.read();
    if (this.known?.stamp !== stamp) this.known = { stamp, config: await this.read() };
    return this.known.config;
  }

  async update(change: (config: ShareConfig) => ShareConfig): Promise<ShareConfig> {
    return withFileLock(this.layout.lockTarget('mcp-server'), async () => {
      const current = await this.readFile();
      const next = { ...current, ...change(current) };
      await this.write(next);
      const { token: _token, ...config } = next;
      return config;
    });
  }

  /** The token clients must send; made on first use and kept (encrypted) until replaced. */
  async token(): Promise<string> {
    const sealed = (await this.readFile()).token;
    if (sealed) {
      try {
        return await this.cipher.decrypt(sealed);
      } catch (error) {
        // Another machine's key: a new token, which clients must be given again.
        this.log.warn('the MCP server token cannot be read; making a new one', { error: String(error) });
      }
    }
    return this.newToken();
  }

  async newToken(): Promise<string> {
    const token = randomBytes(24).toString('base64url');
    const sealed = await this.cipher.encrypt(token);
    await withFileLock(this.layout.lockTarget('mcp-server'), async () => this.write({ ...(await this.readFile()), token: sealed }));
    return token;
  }

  private async write(file: ShareFile): Promise<void> {
    await writeFileAtomically(this.file, stringifyStable({ ...file }, KEY_ORDER), { within: this.layout.root });
  }

  private async readFile(): Promise<ShareFile> {
    const read = await readJsonFile(this.file);
    if (!read.ok && !read.missing) this.log.warn('mcp-server.json cannot be read; the MCP server stays off', { reason: read.reason });
    const value = (read.ok && read.value && typeof read.value === 'object' ? read.value : {}) as Partial<Record<keyof ShareFile, unknown>>;
    const port = typeof value.port === 'number' && Number.isInteger(value.port) && value.port >= 1024 && value.port <= 65535 ? value.port : DEFAULT_MCP_PORT;
    const shared = Array.isArray(value.sharedBundleIDs) ? value.sharedBundleIDs.filter((id): id is string => typeof id === 'string' && isUuidV7(id)) : [];
    return {
      enabled: value.enabled === true,
      port,
      sharedBundleIDs: [...new Set(shared)],
      discovery: DISCOVERIES.includes(value.discovery) ? (value.discovery as ToolDiscovery) : 'auto',
      ...(typeof value.token === 'string' ? { token: value.token } : {}),
    };
  }
}

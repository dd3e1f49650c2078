import path from 'node:path';
import { specTypeSchemas, type Tool } from '@modelcontextprotocol/client';
import { readJsonFile, writeFileAtomicallyMakingFolders } from '../common/json-files.js';
import { mcpBundleID } from './identity.js';

/** What a server said when it last connected: its tools, and the MCP revision it spoke. */
export interface KnownServer {
  tools: Tool[];
  protocolVersion?: string;
}

/** An MCP revision's name, a date. */
const REVISION = /^\d{4}-\d{2}-\d{2}$/;

/**
 * The last tool list each server gave, in <dataDir>/cache/mcp-tools/: what
 * lets a server start on first use (its tools are listed, searched and
 * offered to models before it runs). Named by the server's stable id, not
 * its name (case-insensitive file systems). A cache that is missing or does
 * not parse is no cache: the server then starts to be asked.
 */
export class ToolListCache {
  private readonly folder: string;

  constructor(private readonly root: string) {
    this.folder = path.join(root, 'cache', 'mcp-tools');
  }

  async read(server: string): Promise<KnownServer | null> {
    const read = await readJsonFile(this.file(server));
    if (!read.ok || !read.value || typeof read.value !== 'object') return null;
    const kept = read.value as { tools?: unknown; protocolVersion?: unknown };
    // zod's check answers with a promise when its synchronous pass threw (a file nested past the stack): awaited, and
    // a check that fails so is no cache.
    const checked = await Promise.resolve(specTypeSchemas.ListToolsResult['~standard'].validate({ tools: kept.tools })).catch(() => null);
    if (!checked || checked.issues) return null;
    const protocolVersion = typeof kept.protocolVersion === 'string' && REVISION.test(kept.protocolVersion) ? kept.protocolVersion : undefined;
    return { tools: checked.value.tools, ...(protocolVersion ? { protocolVersion } : {}) };
  }

  write(server: string, known: KnownServer): Promise<void> {
    return writeFileAtomicallyMakingFolders(this.file(server), `${JSON.stringify({ server, ...known }, null, 2)}\n`, { within: this.root });
  }

  private file(server: string): string {
    return path.join(this.folder, `${mcpBundleID(server)}.json`);
  }
}

import path from 'node:path';
import { ListToolsResultSchema, type Tool } from '@modelcontextprotocol/sdk/types.js';
import { readJsonFile, writeFileAtomicallyMakingFolders } from '../common/json-files.js';
import { mcpBundleID } from './identity.js';

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

  async read(server: string): Promise<Tool[] | null> {
    const read = await readJsonFile(this.file(server));
    if (!read.ok) return null;
    const parsed = ListToolsResultSchema.safeParse({ tools: (read.value as { tools?: unknown } | null)?.tools });
    return parsed.success ? parsed.data.tools : null;
  }

  write(server: string, tools: Tool[]): Promise<void> {
    return writeFileAtomicallyMakingFolders(this.file(server), `${JSON.stringify({ server, tools }, null, 2)}\n`, { within: this.root });
  }

  private file(server: string): string {
    return path.join(this.folder, `${mcpBundleID(server)}.json`);
  }
}

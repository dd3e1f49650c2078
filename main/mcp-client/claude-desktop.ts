import os from 'node:os';
import path from 'node:path';
import { ToolbeltError } from '../../shared/errors.js';
import type { McpServerConfig } from '../../shared/schemas/mcp.js';
import { readJsonFile } from '../common/json-files.js';
import { serversFromPaste } from './pasted-config.js';

/** Where Claude Desktop keeps its configuration on this system. */
export function claudeDesktopConfigPath(platform = process.platform, env = process.env, home = os.homedir()): string {
  if (platform === 'darwin') return path.join(home, 'Library', 'Application Support', 'Claude', 'claude_desktop_config.json');
  if (platform === 'win32') return path.join(env.APPDATA ?? path.join(home, 'AppData', 'Roaming'), 'Claude', 'claude_desktop_config.json');
  return path.join(env.XDG_CONFIG_HOME ?? path.join(home, '.config'), 'Claude', 'claude_desktop_config.json');
}

/** The `mcpServers` of Claude Desktop's file; what Toolbelt cannot take is named with the reason. */
export async function readClaudeDesktopServers(file: string): Promise<Record<string, McpServerConfig>> {
  const read = await readJsonFile(file);
  if (!read.ok) {
    if (read.missing) throw new ToolbeltError('not_found', `There is no Claude Desktop configuration at ${file}. Paste your mcpServers JSON instead.`);
    throw new ToolbeltError('file_invalid', `${file} cannot be used: ${read.reason}.`, { file, reason: read.reason });
  }
  const servers = (read.value as { mcpServers?: unknown } | null)?.mcpServers;
  if (!servers || typeof servers !== 'object' || Object.keys(servers).length === 0) {
    throw new ToolbeltError('not_found', `${file} has no mcpServers to import.`);
  }
  try {
    return serversFromPaste({ mcpServers: servers as Record<string, unknown> }).servers;
  } catch (error) {
    if (!(error instanceof ToolbeltError)) throw error;
    throw new ToolbeltError('invalid_params', `Some servers in ${file} cannot be imported: ${error.message}`, { file, ...(error.details as object) });
  }
}

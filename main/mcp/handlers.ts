import type { Handlers } from '../api/dispatcher.js';
import { readClaudeDesktopServers } from './claude-desktop.js';
import type { McpServers } from './servers.js';

/** mcpServers.*: the servers people configure, over the same table as everything else. */
export function mcpHandlers(servers: McpServers, claudeDesktopConfig: string): Pick<Handlers, 'mcpServers.list' | 'mcpServers.put' | 'mcpServers.delete' | 'mcpServers.restart' | 'mcpServers.import' | 'mcpServers.importClaudeDesktop'> {
  return {
    'mcpServers.list': () => ({ servers: servers.list() }),
    'mcpServers.put': ({ name, config }) => servers.put(name, config),
    'mcpServers.delete': async ({ name }) => {
      await servers.delete(name);
      return null;
    },
    'mcpServers.restart': ({ name }) => servers.restart(name),
    'mcpServers.import': async ({ mcpServers }) => ({ servers: await servers.putAll(mcpServers) }),
    'mcpServers.importClaudeDesktop': async () => ({ file: claudeDesktopConfig, servers: await servers.putAll(await readClaudeDesktopServers(claudeDesktopConfig)) }),
  };
}

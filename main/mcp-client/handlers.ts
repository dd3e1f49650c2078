import type { Handlers } from '../api/dispatcher.js';
import { serversFromPaste } from './pasted-config.js';
import { readClaudeDesktopServers } from './claude-desktop.js';
import type { McpServers } from './servers.js';

/** mcpServers.*: the servers people configure, over the same table as everything else. */
// mcpServers.delete is answered with the installs (install-handlers.ts): a bundle's server takes its files with it.
type McpOperation = Exclude<Extract<keyof Handlers, `mcpServers.${string}`>, 'mcpServers.delete'>;

export function mcpHandlers(servers: McpServers, claudeDesktopConfig: string): Pick<Handlers, McpOperation> {
  return {
    'mcpServers.list': () => ({ servers: servers.list() }),
    'mcpServers.put': ({ name, config }) => servers.put(name, config),
    'mcpServers.restart': ({ name }) => servers.restart(name),
    'mcpServers.import': async (document) => {
      const { servers: pasted, secretsToSet } = serversFromPaste(document);
      return { servers: await servers.putAll(pasted), ...(secretsToSet.length ? { secretsToSet } : {}) };
    },
    'mcpServers.importClaudeDesktop': async () => ({ file: claudeDesktopConfig, servers: await servers.putAll(await readClaudeDesktopServers(claudeDesktopConfig)) }),
    'mcpServers.resources': ({ name }) => servers.resources(name),
    'mcpServers.readResource': ({ name, uri }) => servers.readResource(name, uri),
    'mcpServers.prompts': ({ name }) => servers.prompts(name),
    'mcpServers.getPrompt': ({ name, prompt, args }) => servers.getPrompt(name, prompt, args ?? {}),
  };
}

import type { Handlers } from '../api/dispatcher.js';
import type { McpbInstaller } from './mcpb/mcpb-installs.js';
import type { McpRegistry } from './registry/mcp-registry.js';
import type { LinkInstaller } from './link-install.js';
import type { McpServers } from './servers.js';

type InstallOperation = Extract<keyof Handlers, `mcpb.${string}` | `mcpRegistry.${string}` | `links.${string}`> | 'mcpServers.delete';

/** mcpb.*, mcpRegistry.* and links.*: MCP servers installed from bundles, registries and toolbelt:// links. */
export function installHandlers(mcpb: McpbInstaller, registry: McpRegistry, links: LinkInstaller, servers: McpServers): Pick<Handlers, InstallOperation> {
  return {
    // Removing a server that came from a bundle removes the bundle's files and the secrets made for it too.
    'mcpServers.delete': async ({ name }) => {
      if (mcpb.installs().some((install) => install.serverName === name)) await mcpb.uninstall(name);
      else await servers.delete(name);
      return null;
    },
    'mcpb.preview': ({ file }) => mcpb.preview(file),
    'mcpb.install': ({ previewId, userConfig, enabled }) => mcpb.install(previewId, userConfig ?? {}, enabled ?? false),
    'mcpb.list': () => ({ installs: mcpb.installs() }),
    'mcpb.uninstall': async ({ name }) => {
      await mcpb.uninstall(name);
      return null;
    },
    'mcpRegistry.search': (params) => registry.search(params),
    'mcpRegistry.plan': (params) => registry.plan(params),
    'mcpRegistry.install': (params) => registry.install(params),
    'links.preview': ({ url }) => links.preview(url),
    'links.installMcp': async ({ url }) => ({ servers: await links.installMcp(url) }),
  };
}

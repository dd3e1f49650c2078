import type { Handlers } from '../api/dispatcher.js';
import type { McpbInstaller } from './mcpb/mcpb-installs.js';
import type { McpRegistry } from './registry/mcp-registry.js';
import type { LinkInstaller } from './link-install.js';

type InstallOperation = Extract<keyof Handlers, `mcpb.${string}` | `mcpRegistry.${string}` | `links.${string}`>;

/** mcpb.*, mcpRegistry.* and links.*: MCP servers installed from bundles, registries and toolbelt:// links. */
export function installHandlers(mcpb: McpbInstaller, registry: McpRegistry, links: LinkInstaller): Pick<Handlers, InstallOperation> {
  return {
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

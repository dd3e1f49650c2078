import type { Handlers } from '../api/dispatcher.js';
import type { McpbInstaller } from './mcpb/mcpb-installs.js';
import type { McpRegistry } from './registry/mcp-registry.js';

type InstallOperation = Extract<keyof Handlers, `mcpb.${string}` | `mcpRegistry.${string}`>;

/** mcpb.* and mcpRegistry.*: MCP servers installed from bundles and from registries. */
export function installHandlers(mcpb: McpbInstaller, registry: McpRegistry): Pick<Handlers, InstallOperation> {
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
  };
}

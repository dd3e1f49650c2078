import type { Handlers } from '../api/dispatcher.js';
import type { McpShare } from './mcp-share.js';

/** mcpShare.*: Toolbelt's own MCP server. */
export function mcpShareHandlers(share: McpShare): Pick<Handlers, 'mcpShare.status' | 'mcpShare.configure' | 'mcpShare.shareBundle' | 'mcpShare.connection' | 'mcpShare.activity'> {
  return {
    'mcpShare.status': () => share.status(),
    'mcpShare.configure': (change) => share.configure(change),
    'mcpShare.shareBundle': ({ bundleID, shared }) => share.shareBundle(bundleID, shared),
    'mcpShare.connection': () => share.connection(),
    'mcpShare.activity': async ({ limit }) => ({ calls: await share.recentActivity(limit ?? 100) }),
  };
}

import { createHash } from 'node:crypto';

/**
 * A UUIDv7-shaped id derived from a name: the same server (or server tool)
 * gets the same bundleID (toolID) across restarts, so switches, chat
 * selections and usage stay attached to it. Bits 48–51 say version 7 and
 * bits 64–65 the RFC 4122 variant, as the schemas require.
 */
function stableID(seed: string): string {
  const hex = createHash('sha256').update(seed).digest('hex').slice(0, 32).split('');
  hex[12] = '7';
  hex[16] = ((parseInt(hex[16]!, 16) & 0x3) | 0x8).toString(16);
  const h = hex.join('');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20, 32)}`;
}

export const mcpBundleID = (server: string) => stableID(`toolbelt/mcp/${server}`);
export const mcpToolID = (server: string, tool: string) => stableID(`toolbelt/mcp/${server}/${tool}`);

import type { Transport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { MCP_APPS_EXTENSION } from '../../shared/mcp/app-extension.js';

/** Who Toolbelt says it is, and what it can do, to every server (the 2026 tasks extension frames its own requests with these). */
export const CLIENT_INFO = { name: 'Toolbelt', version: '1' };
// Forms only: URL-mode elicitation (open a web page) is not offered. A field the person left
// empty that has a default is answered with the default (SEP-1034). MCP Apps are shown (the ui extension).
export const CLIENT_CAPABILITIES = { elicitation: { form: { applyDefaults: true } }, extensions: MCP_APPS_EXTENSION };

/**
 * How long a stdio server has to answer the 2026 probe (server/discover) before it is taken for a 2025 server,
 * which some never answer before their handshake. Over HTTP silence is an outage, and the connect timeout rules.
 */
const STDIO_PROBE_MS = 10_000;

/**
 * The SDK's own negotiation: 2026-07-28 first (server/discover), the 2025 handshake for a server that does not know
 * it. A 2026 server's input_required results are answered by the same elicitation handler, round by round, inside
 * the call (the SDK caps the rounds). The one exception is a stdio server known to speak 2025: the probe would cost
 * it a second process at every start (the SDK probes stdio on a short-lived sibling), so it shakes hands as before.
 */
export function negotiationFor(transport: Transport, rememberedVersion: string | undefined, connectTimeoutMs: number): { mode: 'auto' | 'legacy'; probe?: { timeoutMs: number } } {
  if (!(transport instanceof StdioClientTransport)) return { mode: 'auto' };
  if (rememberedVersion?.startsWith('2025-')) return { mode: 'legacy' };
  return { mode: 'auto', probe: { timeoutMs: Math.min(STDIO_PROBE_MS, connectTimeoutMs) } };
}

/** The document type of an MCP App's UI (its `ui://` resource). */
export const MCP_APP_MIME_TYPE = 'text/html;profile=mcp-app';

/**
 * MCP Apps as the extension a client declares under `capabilities.extensions` (2026-07-28 names extensions so; the
 * 2025 handshake carries the same field): servers that offer an app only to a client that can show one see that
 * Toolbelt can.
 */
export const MCP_APPS_EXTENSION = { 'io.modelcontextprotocol/ui': { mimeTypes: [MCP_APP_MIME_TYPE] } };

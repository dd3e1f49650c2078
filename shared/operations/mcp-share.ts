import { Type } from '@sinclair/typebox';
import { defineOperation } from '../operation.js';
import { UuidV7Schema } from '../schemas/ids.js';
import { McpActivitySchema, McpShareConnectionSchema, McpShareStatusSchema } from '../schemas/mcp-share.js';
import { ToolDiscoverySchema } from '../schemas/chat.js';

export const mcpShareStatus = defineOperation({
  name: 'mcpShare.status',
  summary: 'Toolbelt’s own MCP server: on or off, its port and URL, the shared bundles, tools and connected clients.',
  params: Type.Object({}, { additionalProperties: false }),
  result: McpShareStatusSchema,
  http: { method: 'GET', path: '/api/mcp-share' },
});

export const mcpShareConfigure = defineOperation({
  name: 'mcpShare.configure',
  summary: 'Switch the MCP server on or off, move it to another port, or replace its token (clients must use the new one).',
  params: Type.Object(
    {
      enabled: Type.Optional(Type.Boolean()),
      port: Type.Optional(Type.Integer({ minimum: 1024, maximum: 65535 })),
      newToken: Type.Optional(Type.Literal(true)),
      /** How clients get the shared tools: all listed, or by tool_search. */
      discovery: Type.Optional(ToolDiscoverySchema),
    },
    { additionalProperties: false },
  ),
  result: McpShareStatusSchema,
  http: { method: 'PATCH', path: '/api/mcp-share' },
});

export const mcpShareBundle = defineOperation({
  name: 'mcpShare.shareBundle',
  summary: 'Share a bundle’s enabled tools over MCP, or stop sharing it. Connected clients are told the list changed.',
  params: Type.Object({ bundleID: UuidV7Schema, shared: Type.Boolean() }, { additionalProperties: false }),
  result: McpShareStatusSchema,
  http: { method: 'PUT', path: '/api/mcp-share/bundles/:bundleID' },
});

export const mcpShareConnection = defineOperation({
  name: 'mcpShare.connection',
  summary: 'The URL and token, and ready mcpServers snippets for other apps. Asked for when a person copies them.',
  params: Type.Object({}, { additionalProperties: false }),
  result: McpShareConnectionSchema,
  http: { method: 'POST', path: '/api/mcp-share/connection' },
});

export const mcpShareActivity = defineOperation({
  name: 'mcpShare.activity',
  summary: 'Calls MCP clients made to shared tools, newest first (the last 500 are kept).',
  params: Type.Object({ limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 500 })) }, { additionalProperties: false }),
  result: Type.Object({ calls: Type.Array(McpActivitySchema) }, { additionalProperties: false }),
  http: { method: 'GET', path: '/api/mcp-share/activity' },
});

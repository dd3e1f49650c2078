import { Type } from '@sinclair/typebox';
import { defineOperation } from '../operation.js';
import { McpServerConfigSchema, McpServerNameSchema, McpServerViewSchema } from '../schemas/mcp.js';

const serverRoute = '/api/mcp/servers/:name';

export const mcpServersList = defineOperation({
  name: 'mcpServers.list',
  summary: 'The configured MCP servers with their state, tools and, when they failed, why.',
  params: Type.Object({}, { additionalProperties: false }),
  result: Type.Object({ servers: Type.Array(McpServerViewSchema) }, { additionalProperties: false }),
  http: { method: 'GET', path: '/api/mcp/servers' },
});

export const mcpServersPut = defineOperation({
  name: 'mcpServers.put',
  summary: 'Add or replace a server ({ command, args?, env?, cwd? } or { url, headers?, type? }); it (re)starts.',
  params: Type.Object({ name: McpServerNameSchema, config: McpServerConfigSchema }, { additionalProperties: false }),
  result: McpServerViewSchema,
  http: { method: 'PUT', path: serverRoute, bodyParam: 'config' },
});

export const mcpServersDelete = defineOperation({
  name: 'mcpServers.delete',
  summary: 'Stop a server and forget it; its tools leave every list.',
  params: Type.Object({ name: McpServerNameSchema }, { additionalProperties: false }),
  result: Type.Null(),
  http: { method: 'DELETE', path: serverRoute, successStatus: 204 },
});

export const mcpServersRestart = defineOperation({
  name: 'mcpServers.restart',
  summary: 'Stop and start a server again; answers once it is connected or has failed.',
  params: Type.Object({ name: McpServerNameSchema }, { additionalProperties: false }),
  result: McpServerViewSchema,
  http: { method: 'POST', path: `${serverRoute}/restart` },
});

export const mcpServersImport = defineOperation({
  name: 'mcpServers.import',
  summary: 'Add every server of a pasted { "mcpServers": { name: config } } document (Claude Desktop, Cursor); each starts.',
  params: Type.Object(
    { mcpServers: Type.Record(McpServerNameSchema, McpServerConfigSchema, { maxProperties: 100 }) },
    { additionalProperties: false },
  ),
  result: Type.Object({ servers: Type.Array(McpServerViewSchema) }, { additionalProperties: false }),
  http: { method: 'POST', path: '/api/mcp/import' },
});

export const mcpServersImportClaudeDesktop = defineOperation({
  name: 'mcpServers.importClaudeDesktop',
  summary: "Add every server of Claude Desktop's configuration file, read from its usual place on this system.",
  params: Type.Object({}, { additionalProperties: false }),
  result: Type.Object({ file: Type.String(), servers: Type.Array(McpServerViewSchema) }, { additionalProperties: false }),
  http: { method: 'POST', path: '/api/mcp/import/claude-desktop' },
});

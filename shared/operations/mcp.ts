import { Type } from '@sinclair/typebox';
import { defineOperation } from '../operation.js';
import {
  McpPromptMessagesSchema,
  McpPromptSchema,
  McpResourceContentSchema,
  McpResourceSchema,
  McpResourceTemplateSchema,
  McpServerConfigSchema,
  McpServerNameSchema,
  McpServerViewSchema,
} from '../schemas/mcp.js';

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
  summary:
    'Add every server of a pasted document: { "mcpServers": { name: config } } (Claude Desktop, Claude Code, Cursor, Windsurf) or VS Code\'s { "servers": …, "inputs": … }; each starts. One server that cannot be used refuses the whole paste, saying which and why.',
  params: Type.Object(
    {
      mcpServers: Type.Optional(Type.Record(Type.String({ maxLength: 200 }), Type.Unknown(), { maxProperties: 100 })),
      /** VS Code's shape; its `${input:id}` become secrets named after the ids. */
      servers: Type.Optional(Type.Record(Type.String({ maxLength: 200 }), Type.Unknown(), { maxProperties: 100 })),
      inputs: Type.Optional(Type.Array(Type.Unknown(), { maxItems: 100 })),
    },
    { additionalProperties: false },
  ),
  result: Type.Object(
    {
      servers: Type.Array(McpServerViewSchema),
      /** Secrets the pasted servers name (VS Code inputs) that are to be set in Settings → Secrets. */
      secretsToSet: Type.Optional(Type.Array(Type.String())),
    },
    { additionalProperties: false },
  ),
  http: { method: 'POST', path: '/api/mcp/import' },
});

export const mcpServersImportClaudeDesktop = defineOperation({
  name: 'mcpServers.importClaudeDesktop',
  summary: "Add every server of Claude Desktop's configuration file, read from its usual place on this system.",
  params: Type.Object({}, { additionalProperties: false }),
  result: Type.Object({ file: Type.String(), servers: Type.Array(McpServerViewSchema) }, { additionalProperties: false }),
  http: { method: 'POST', path: '/api/mcp/import/claude-desktop' },
});

const byServer = { name: McpServerNameSchema };

export const mcpServersResources = defineOperation({
  name: 'mcpServers.resources',
  summary: 'The resources and resource templates a server offers (empty when it offers none); starts it if needed.',
  params: Type.Object(byServer, { additionalProperties: false }),
  result: Type.Object({ resources: Type.Array(McpResourceSchema), templates: Type.Array(McpResourceTemplateSchema) }, { additionalProperties: false }),
  http: { method: 'GET', path: `${serverRoute}/resources` },
});

export const mcpServersReadResource = defineOperation({
  name: 'mcpServers.readResource',
  summary: 'Read one resource by its URI: text, or base64 data with its type.',
  params: Type.Object({ ...byServer, uri: Type.String({ minLength: 1, maxLength: 4_096 }) }, { additionalProperties: false }),
  result: Type.Object({ contents: Type.Array(McpResourceContentSchema) }, { additionalProperties: false }),
  http: { method: 'POST', path: `${serverRoute}/resources/read` },
});

export const mcpServersPrompts = defineOperation({
  name: 'mcpServers.prompts',
  summary: 'The prompts a server offers, with the arguments each takes (empty when it offers none).',
  params: Type.Object(byServer, { additionalProperties: false }),
  result: Type.Object({ prompts: Type.Array(McpPromptSchema) }, { additionalProperties: false }),
  http: { method: 'GET', path: `${serverRoute}/prompts` },
});

export const mcpServersGetPrompt = defineOperation({
  name: 'mcpServers.getPrompt',
  summary: 'Fill in a prompt with its arguments and get its messages as text.',
  params: Type.Object(
    { ...byServer, prompt: Type.String({ minLength: 1, maxLength: 1_000 }), args: Type.Optional(Type.Record(Type.String({ maxLength: 200 }), Type.String({ maxLength: 100_000 }), { maxProperties: 50 })) },
    { additionalProperties: false },
  ),
  result: McpPromptMessagesSchema,
  http: { method: 'POST', path: `${serverRoute}/prompts/get` },
});

import { Type } from '@sinclair/typebox';
import { defineOperation } from '../operation.js';
import { McpServerNameSchema, McpServerViewSchema } from '../schemas/mcp.js';
import {
  InstallPlanSchema,
  LinkPreviewSchema,
  McpbInstallSchema,
  McpbPreviewSchema,
  McpbUserConfigSchema,
  RegistryInstallParamsSchema,
  RegistryPageSchema,
} from '../schemas/mcp-install.js';

/** A 200 MB bundle as base64, with room for the JSON around it. */
const MCPB_BODY_BYTES = 280_000_000;

export const mcpbPreview = defineOperation({
  name: 'mcpb.preview',
  summary:
    'Read an MCP bundle (.mcpb) without installing it: its manifest (name, author, version, tools, prompts, platforms, runtimes), signature, the settings it asks for, the exact server it would add, and problems. Nothing runs and nothing is unpacked.',
  params: Type.Object(
    // No minLength on the base64: checking one counts the characters of tens of MB; an empty file is refused by the installer.
    { file: Type.Object({ name: Type.String({ minLength: 1, maxLength: 500 }), dataBase64: Type.String() }, { additionalProperties: false }) },
    { additionalProperties: false },
  ),
  result: McpbPreviewSchema,
  http: { method: 'POST', path: '/api/mcp/mcpb/preview', maxBodyBytes: MCPB_BODY_BYTES },
});

export const mcpbInstall = defineOperation({
  name: 'mcpb.install',
  summary:
    "Install a previewed bundle: its files go to Toolbelt's data folder and its server is added, off unless `enabled` (sensitive settings become secrets). A bundle installed before is updated in place.",
  params: Type.Object(
    { previewId: Type.String({ minLength: 1, maxLength: 100 }), userConfig: Type.Optional(McpbUserConfigSchema), enabled: Type.Optional(Type.Boolean()) },
    { additionalProperties: false },
  ),
  result: McpServerViewSchema,
  http: { method: 'POST', path: '/api/mcp/mcpb/install' },
});

export const mcpbList = defineOperation({
  name: 'mcpb.list',
  summary: 'The servers installed from MCP bundles, with their versions.',
  params: Type.Object({}, { additionalProperties: false }),
  result: Type.Object({ installs: Type.Array(McpbInstallSchema) }, { additionalProperties: false }),
  http: { method: 'GET', path: '/api/mcp/mcpb/installs' },
});

export const mcpbUninstall = defineOperation({
  name: 'mcpb.uninstall',
  summary: 'Remove a server installed from a bundle, with its files and the secrets made for its settings.',
  params: Type.Object({ name: McpServerNameSchema }, { additionalProperties: false }),
  result: Type.Null(),
  http: { method: 'DELETE', path: '/api/mcp/mcpb/installs/:name', successStatus: 204 },
});

export const mcpRegistrySearch = defineOperation({
  name: 'mcpRegistry.search',
  summary:
    "Search an MCP registry (the official one unless `registry` names one of the person's, Settings → mcpRegistries): a page of servers with what each can run as; kept for ten minutes, and answered from what was kept when offline.",
  params: Type.Object(
    {
      registry: Type.Optional(Type.String({ maxLength: 2_000 })),
      search: Type.Optional(Type.String({ maxLength: 200 })),
      cursor: Type.Optional(Type.String({ maxLength: 2_000 })),
      limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100 })),
    },
    { additionalProperties: false },
  ),
  result: RegistryPageSchema,
  http: { method: 'GET', path: '/api/mcp/registry/servers' },
});

export const mcpRegistryPlan = defineOperation({
  name: 'mcpRegistry.plan',
  summary: 'What installing one choice of a registry entry (a remote or a package) with these values would add: the exact command or address, setting names, hosts and secrets. Nothing is added.',
  params: RegistryInstallParamsSchema,
  result: InstallPlanSchema,
  http: { method: 'POST', path: '/api/mcp/registry/plan' },
});

export const mcpRegistryInstall = defineOperation({
  name: 'mcpRegistry.install',
  summary: "Add the server a registry entry's choice runs as (what mcpRegistry.plan showed); secret values become the person's secrets. It starts.",
  params: RegistryInstallParamsSchema,
  result: McpServerViewSchema,
  http: { method: 'POST', path: '/api/mcp/registry/install' },
});

// Longer links than the parser takes (64 KB) still reach it, so that they are refused with why (link_invalid).
const LinkParams = Type.Object({ url: Type.String({ minLength: 1, maxLength: 2_000_000 }) }, { additionalProperties: false });

export const linksPreview = defineOperation({
  name: 'links.preview',
  summary: 'What a toolbelt:// link would do (toolbelt://mcp/install?config=<base64 JSON>: the servers it would add, exactly; toolbelt://chat/new?q=<text>: the message it would start a chat with). Nothing is done.',
  params: LinkParams,
  result: LinkPreviewSchema,
  http: { method: 'POST', path: '/api/links/preview' },
});

export const linksInstallMcp = defineOperation({
  name: 'links.installMcp',
  summary: 'Add the servers of a toolbelt://mcp/install link, once the person has confirmed what links.preview showed; they start.',
  params: LinkParams,
  result: Type.Object({ servers: Type.Array(McpServerViewSchema) }, { additionalProperties: false }),
  http: { method: 'POST', path: '/api/links/mcp-install' },
});

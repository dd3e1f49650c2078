import { Type } from '@sinclair/typebox';
import { defineOperation } from '../operation.js';
import { ToolNameSchema, UuidV7Schema } from '../schemas/ids.js';
import { McpResourceContentSchema } from '../schemas/mcp.js';

/** An MCP App is named by the tool whose UI it is: its server's bundle and the tool's name there. */
const appTool = { bundleID: UuidV7Schema, toolSlug: ToolNameSchema };

/** An MCP `CallToolResult` as an app receives it: content blocks, structured content, whether it failed. */
export const AppToolResultSchema = Type.Object(
  {
    content: Type.Array(Type.Object({ type: Type.String({ maxLength: 40 }) }, { additionalProperties: true }), { maxItems: 1_000 }),
    structuredContent: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
    isError: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);

export const McpAppResourceSchema = Type.Object(
  {
    uri: Type.String({ pattern: '^ui://', maxLength: 2_048 }),
    /** The app's document, as its server sent it. */
    html: Type.String({ maxLength: 5_000_000 }),
    /** What names it on the app sandbox's origin (`/doc/<digest>`), where the host serves one: the relay frames it at once. */
    digest: Type.Optional(Type.String({ pattern: '^[0-9a-f]{64}$' })),
    /** The origins it declared (`_meta.ui.csp`), for the sandbox's policy. */
    csp: Type.Optional(
      Type.Object(
        {
          connectDomains: Type.Optional(Type.Array(Type.String({ maxLength: 300 }), { maxItems: 32 })),
          resourceDomains: Type.Optional(Type.Array(Type.String({ maxLength: 300 }), { maxItems: 32 })),
          frameDomains: Type.Optional(Type.Array(Type.String({ maxLength: 300 }), { maxItems: 32 })),
          baseUriDomains: Type.Optional(Type.Array(Type.String({ maxLength: 300 }), { maxItems: 32 })),
        },
        { additionalProperties: false },
      ),
    ),
    /** Sensor and device features it asks for (camera, microphone, geolocation, clipboard-write); the person allows them. */
    permissions: Type.Array(Type.String({ maxLength: 40 }), { maxItems: 4 }),
    prefersBorder: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);

export const mcpAppsResource = defineOperation({
  name: 'mcpApps.resource',
  summary: "The UI of an MCP tool (its ui:// resource, text/html;profile=mcp-app) with what it declared for its sandbox; starts the server if needed.",
  params: Type.Object(appTool, { additionalProperties: false }),
  result: McpAppResourceSchema,
  http: { method: 'POST', path: '/api/mcp-apps/resource' },
});

export const mcpAppsCallTool = defineOperation({
  name: 'mcpApps.callTool',
  summary: "An app calls a tool of its own server (one the server lets apps call), through the same door to the person as any caller.",
  params: Type.Object(
    { ...appTool, name: ToolNameSchema, arguments: Type.Optional(Type.Record(Type.String(), Type.Unknown())) },
    { additionalProperties: false },
  ),
  result: AppToolResultSchema,
  http: { method: 'POST', path: '/api/mcp-apps/call-tool' },
});

export const mcpAppsReadResource = defineOperation({
  name: 'mcpApps.readResource',
  summary: "An app reads a resource of its own server.",
  params: Type.Object({ ...appTool, uri: Type.String({ minLength: 1, maxLength: 4_096 }) }, { additionalProperties: false }),
  result: Type.Object({ contents: Type.Array(McpResourceContentSchema) }, { additionalProperties: false }),
  http: { method: 'POST', path: '/api/mcp-apps/read-resource' },
});

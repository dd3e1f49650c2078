import { HookRunSchema } from './hooks.js';
import { Type, type Static } from '@sinclair/typebox';
import { UuidV7Schema } from './ids.js';
import { ToolDiscoverySchema } from './chat.js';

/** Toolbelt's own MCP server: whether it runs, on which port, and which bundles it shares. */
export const McpShareStatusSchema = Type.Object(
  {
    enabled: Type.Boolean(),
    port: Type.Integer({ minimum: 1024, maximum: 65535 }),
    /** `running` while it listens; `failed` says why (the port is taken, say); `off` when switched off. */
    state: Type.Union([Type.Literal('off'), Type.Literal('running'), Type.Literal('failed')]),
    failure: Type.Optional(Type.Object({ code: Type.String(), message: Type.String() }, { additionalProperties: false })),
    url: Type.String(),
    sharedBundleIDs: Type.Array(UuidV7Schema),
    /** Tools a client sees now: enabled tools of shared bundles. */
    toolCount: Type.Integer({ minimum: 0 }),
    /** Clients get every shared tool listed, tool_search and what they find, or (`auto`) search past 30 tools. */
    discovery: ToolDiscoverySchema,
    /** What clients are listed now, by that setting. */
    listing: Type.Union([Type.Literal('all'), Type.Literal('search')]),
    /**
     * MCP clients with a session, by the name they gave: `open` while a call or event stream is open, else since
     * when they have been quiet (a client may leave without ending its session; one quiet for an hour is ended).
     */
    clients: Type.Array(
      Type.Object({ name: Type.String(), open: Type.Boolean(), lastSeenAt: Type.String({ format: 'date-time' }) }, { additionalProperties: false }),
    ),
  },
  { additionalProperties: false },
);
export type McpShareStatus = Static<typeof McpShareStatusSchema>;

/** What a person pastes into another app to use the shared tools, with the token in it. */
export const McpShareConnectionSchema = Type.Object(
  {
    url: Type.String(),
    token: Type.String(),
    /** `{ "mcpServers": { "toolbelt": { url, headers } } }` for clients of Streamable HTTP (Cursor, Claude Code, …). */
    httpSnippet: Type.String(),
    /** The same for clients that start a command over stdio (Claude Desktop). */
    stdioSnippet: Type.String(),
  },
  { additionalProperties: false },
);
export type McpShareConnection = Static<typeof McpShareConnectionSchema>;

/** One call an MCP client made to a shared tool: what other agents did with the person's tools. */
export const McpActivitySchema = Type.Object(
  {
    id: UuidV7Schema,
    at: Type.String({ format: 'date-time' }),
    client: Type.String({ maxLength: 200 }),
    /** The name the client called. */
    tool: Type.String({ maxLength: 200 }),
    /** Not a call: the client's session was ended to make room for a new one (`tool` is empty). */
    event: Type.Optional(Type.Literal('session-ended')),
    displayName: Type.Optional(Type.String()),
    bundleID: Type.Optional(UuidV7Schema),
    /** The arguments as JSON text, cut at 4 KB. */
    args: Type.String(),
    ok: Type.Boolean(),
    /** The answer as text (cut at 4 KB), or the error message. */
    result: Type.String(),
    errorCode: Type.Optional(Type.String()),
    durationMs: Type.Number({ minimum: 0 }),
    approval: Type.Union([Type.Literal('not-needed'), Type.Literal('approved'), Type.Literal('declined'), Type.Literal('no-window')]),
    /** The hooks that ran around the call, each with what it decided (at most 20 kept). */
    hooks: Type.Optional(Type.Array(HookRunSchema, { maxItems: 20 })),
  },
  { additionalProperties: false },
);
export type McpActivity = Static<typeof McpActivitySchema>;

import { Type, type Static } from '@sinclair/typebox';
import { UuidV7Schema } from './ids.js';

/** A server's name, as people give it in an `mcpServers` document (the key). */
export const McpServerNameSchema = Type.String({ minLength: 1, maxLength: 64, pattern: '^[A-Za-z0-9][A-Za-z0-9_.-]*$', description: 'Letters, digits, "-", "_" and "."' });

/** Values may name secrets (`${secret.NAME}`): the file keeps the names, the values stay secrets. */
const Values = Type.Record(Type.String({ minLength: 1, maxLength: 256 }), Type.String({ maxLength: 8_192 }), { maxProperties: 100 });

const common = {
  /** Off: configured, not started, its tools not listed. */
  disabled: Type.Optional(Type.Boolean()),
  /** How long one tool call may take; progress from the server restarts the clock. Default 60 s. */
  timeoutMs: Type.Optional(Type.Integer({ minimum: 1_000, maximum: 3_600_000 })),
};

/**
 * One server, in the shape Claude Desktop and Cursor use: a command to run
 * (stdio), or a URL (Streamable HTTP, falling back to HTTP+SSE).
 */
export const McpServerConfigSchema = Type.Union([
  Type.Object(
    {
      command: Type.String({ minLength: 1, maxLength: 4_096 }),
      args: Type.Optional(Type.Array(Type.String({ maxLength: 8_192 }), { maxItems: 200 })),
      env: Type.Optional(Values),
      cwd: Type.Optional(Type.String({ minLength: 1, maxLength: 4_096 })),
      ...common,
    },
    { additionalProperties: false },
  ),
  Type.Object(
    {
      url: Type.String({ pattern: '^https?://', maxLength: 4_096 }),
      headers: Type.Optional(Values),
      type: Type.Optional(Type.Union([Type.Literal('http'), Type.Literal('streamable-http'), Type.Literal('sse')])),
      ...common,
    },
    { additionalProperties: false },
  ),
]);
export type McpServerConfig = Static<typeof McpServerConfigSchema>;

export const McpServerStateSchema = Type.Union([
  Type.Literal('disabled'),
  Type.Literal('starting'),
  Type.Literal('connected'),
  Type.Literal('failed'),
]);

/** A server as the Tools screen shows it: its settings, how it is doing, and why not. */
export const McpServerViewSchema = Type.Object(
  {
    name: McpServerNameSchema,
    config: McpServerConfigSchema,
    state: McpServerStateSchema,
    /** The bundle its tools appear in; the same across restarts. */
    bundleID: UuidV7Schema,
    toolCount: Type.Integer({ minimum: 0 }),
    /** Why it failed, in a sentence with what to do. */
    error: Type.Optional(Type.Object({ code: Type.String(), message: Type.String() }, { additionalProperties: false })),
    /** The last lines it wrote to stderr (stdio servers), secrets masked. */
    stderr: Type.Array(Type.String()),
    serverInfo: Type.Optional(Type.Object({ name: Type.String(), version: Type.String() }, { additionalProperties: false })),
  },
  { additionalProperties: false },
);
export type McpServerView = Static<typeof McpServerViewSchema>;

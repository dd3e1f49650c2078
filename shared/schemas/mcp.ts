import { Type, type Static } from '@sinclair/typebox';
import { UuidV7Schema } from './ids.js';
import { AttachedImageSchema } from './attached-image.js';

/**
 * A server's name, as people give it in an `mcpServers` document (the key):
 * any 1 to 64 characters ("my server", "GitHub (work)"), without control
 * characters or white space at either end. It is only ever a key: ids,
 * slugs and file names are made from it.
 */
export const McpServerNameSchema = Type.String({
  minLength: 1,
  maxLength: 64,
  pattern: '^[^\\s\\u0000-\\u001f\\u007f]([^\\u0000-\\u001f\\u007f]*[^\\s\\u0000-\\u001f\\u007f])?$',
  description: '1 to 64 characters, no control characters',
  hint: 'Use 1 to 64 characters, without control characters or spaces at either end.',
});

/** Values may name secrets (`${secret.NAME}`): the file keeps the names, the values stay secrets. */
const Values = Type.Record(Type.String({ minLength: 1, maxLength: 256 }), Type.String({ maxLength: 8_192 }), { maxProperties: 100 });

const common = {
  /** Off: configured, not started, its tools not listed. */
  disabled: Type.Optional(Type.Boolean()),
  /** Start with Toolbelt, rather than when first used (once its tools are known). */
  eager: Type.Optional(Type.Boolean()),
  /** How long one tool call may take; progress from the server restarts the clock. Default 60 s. */
  timeoutMs: Type.Optional(Type.Integer({ minimum: 1_000, maximum: 3_600_000 })),
  /**
   * Which of its tools ask before a model (or an agent, or an app) runs them.
   * Absent, every tool a model may call asks: a server's annotations are
   * hints nobody vetted, so they only add caution (a tool kept for the
   * server's app asks when it says it destroys something). `as-annotated`
   * trusts the server's hints (the spec's defaults: a tool that does not say
   * it only reads, or that it destroys nothing, asks first); `never` trusts
   * the server outright; `always` asks for every tool.
   */
  askFirst: Type.Optional(Type.Union([Type.Literal('as-annotated'), Type.Literal('always'), Type.Literal('never')])),
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
      /**
       * A client registered with the server's sign-in server by hand, for those that do not let apps register
       * themselves; its secret as `${secret.NAME}`. Register the redirect http://127.0.0.1/callback (any port).
       * `grant: "client_credentials"` is for a server Toolbelt reaches as itself, with no person signing in:
       * the client proves who it is with its secret (client_secret_basic) or a private key (private_key_jwt,
       * the PEM as `${secret.NAME}`, signed with `signingAlgorithm`, ES256 unless said).
       */
      oauth: Type.Optional(
        Type.Union([
          Type.Object(
            {
              clientId: Type.String({ minLength: 1, maxLength: 500 }),
              clientSecret: Type.Optional(Type.String({ minLength: 1, maxLength: 8_192 })),
              grant: Type.Optional(Type.Union([Type.Literal('authorization_code'), Type.Literal('client_credentials')])),
              privateKey: Type.Optional(Type.String({ minLength: 1, maxLength: 16_384 })),
              signingAlgorithm: Type.Optional(Type.String({ pattern: '^(RS|PS|ES)(256|384|512)$|^EdDSA$' })),
            },
            { additionalProperties: false },
          ),
          /**
           * A client ID metadata document the person hosts (an https URL with a path): the URL is Toolbelt's
           * client id at sign-in servers that accept such documents (`client_id_metadata_document_supported`),
           * with no registration; the others are registered with as before. The document lists the redirect
           * http://127.0.0.1/callback (any port, as loopback redirects are matched).
           */
          Type.Object({ clientMetadataUrl: Type.String({ pattern: '^https://[^/?#]+/[^?#]+$', maxLength: 2_000 }) }, { additionalProperties: false }),
        ]),
      ),
      ...common,
    },
    { additionalProperties: false },
  ),
]);
export type McpServerConfig = Static<typeof McpServerConfigSchema>;

export const McpServerStateSchema = Type.Union([
  Type.Literal('disabled'),
  /** Not started: its tools are the list it last gave; it starts when first used. */
  Type.Literal('idle'),
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
    /** What happened lately that the person should know (a new session after the server forgot its own). */
    notice: Type.Optional(Type.String()),
    /** Tools the server offers that Toolbelt does not, and why (not counted in toolCount). */
    leftOut: Type.Optional(Type.Array(Type.Object({ name: Type.String(), why: Type.String() }, { additionalProperties: false }), { maxItems: 50 })),
    /** Its tools that have an MCP App (a UI shown with their calls), by title. */
    apps: Type.Optional(Type.Array(Type.String({ maxLength: 200 }), { maxItems: 50 })),
    /** The last lines it wrote to stderr (stdio servers), secrets masked. */
    stderr: Type.Array(Type.String()),
    /** What it logged lately over MCP (notifications/message), newest last. */
    log: Type.Optional(Type.Array(Type.Object({ level: Type.String(), text: Type.String(), at: Type.String() }, { additionalProperties: false }), { maxItems: 50 })),
    serverInfo: Type.Optional(Type.Object({ name: Type.String(), version: Type.String() }, { additionalProperties: false })),
    /** The MCP revision it speaks (2026-07-28, or a 2025 one), once it has connected. */
    protocolVersion: Type.Optional(Type.String({ maxLength: 40 })),
    /** A remote server that asks the person to sign in: the page to open (its state and PKCE challenge, no secret). */
    authorizationUrl: Type.Optional(Type.String()),
  },
  { additionalProperties: false },
);
export type McpServerView = Static<typeof McpServerViewSchema>;

const Text = (maxLength: number) => Type.String({ maxLength });

/** How a resource or a template reads in a list. */
const described = {
  name: Text(1_000),
  title: Type.Optional(Text(1_000)),
  description: Type.Optional(Text(10_000)),
  mimeType: Type.Optional(Text(200)),
};

/** A resource a server offers (a file, a row, a page), by URI. */
export const McpResourceSchema = Type.Object({ uri: Text(4_096), ...described }, { additionalProperties: false });
export type McpResource = Static<typeof McpResourceSchema>;

/** Resources addressed by a URI template (`file:///{path}`): listed, not read, until filled in. */
export const McpResourceTemplateSchema = Type.Object({ uriTemplate: Text(4_096), ...described }, { additionalProperties: false });

/** What reading a resource gave: text, or base64 data (`blob`). */
export const McpResourceContentSchema = Type.Object(
  { uri: Text(4_096), mimeType: Type.Optional(Text(200)), text: Type.Optional(Type.String()), blob: Type.Optional(Type.String()) },
  { additionalProperties: false },
);
export type McpResourceContent = Static<typeof McpResourceContentSchema>;

export const McpPromptSchema = Type.Object(
  {
    name: Text(1_000),
    title: Type.Optional(Text(1_000)),
    description: Type.Optional(Text(10_000)),
    arguments: Type.Array(
      Type.Object({ name: Text(200), description: Type.Optional(Text(10_000)), required: Type.Boolean() }, { additionalProperties: false }),
    ),
  },
  { additionalProperties: false },
);
export type McpPrompt = Static<typeof McpPromptSchema>;

/** A prompt filled in: its messages as text, each with who says it. */
export const McpPromptMessagesSchema = Type.Object(
  {
    description: Type.Optional(Type.String()),
    messages: Type.Array(
      Type.Object(
        {
          role: Type.Union([Type.Literal('user'), Type.Literal('assistant')]),
          /** The message as text; a picture is named here and carried in `image`. */
          text: Type.String(),
          image: Type.Optional(AttachedImageSchema),
        },
        { additionalProperties: false },
      ),
    ),
  },
  { additionalProperties: false },
);
export type McpPromptMessages = Static<typeof McpPromptMessagesSchema>;

/**
 * Where an MCP server keeps a call's task (ext-tasks' serialized reference), as a chat keeps it with the call: a
 * call whose task was going when the app stopped is followed again at the next start, not marked interrupted.
 */
export const McpTaskReferenceSchema = Type.Object(
  {
    endpointId: Type.String({ maxLength: 200 }),
    generation: Type.Union([Type.Literal('v1'), Type.Literal('v2')]),
    taskId: Type.String({ minLength: 1, maxLength: 500 }),
    originalOperation: Type.Literal('tools/call'),
  },
  { additionalProperties: false },
);

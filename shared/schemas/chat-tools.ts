import { Type, type Static } from '@sinclair/typebox';
import { UuidV7Schema, ToolNameSchema, VersionSchema } from './ids.js';

// How a chat reaches its tools and runs: the selection, bundles, discovery, and the run settings a chat keeps.

/** Names providers accept for tools (OpenAI's rule; Anthropic's is the same set). */
export const EXPOSED_NAME_PATTERN = '^[a-zA-Z0-9_-]{1,64}$';

export const ExposedNameSchema = Type.String({
  pattern: EXPOSED_NAME_PATTERN,
  description: 'ASCII letters, digits, "_" and "-" (1–64 characters)',
  hint: 'Use ASCII letters, digits, "_" and "-" only, up to 64 characters.',
});

export const ProviderIdSchema = Type.String({
  pattern: '^[a-z0-9][a-z0-9-]{0,63}$',
  description: 'Lower-case letters, digits and "-" (1–64 characters)',
  hint: 'Use lower-case letters, digits and "-" only, up to 64 characters, starting with a letter or digit.',
});

export const ToolRefSchema = Type.Object(
  { bundleID: UuidV7Schema, slug: ToolNameSchema, version: VersionSchema },
  { additionalProperties: false },
);
export type ToolRef = Static<typeof ToolRefSchema>;

/** One tool a chat offers the model. */
export const ToolSelectionSchema = Type.Object(
  {
    bundleID: UuidV7Schema,
    slug: ToolNameSchema,
    version: VersionSchema,
    /** The name the model sees instead of the slug. */
    as: Type.Optional(ExposedNameSchema),
    /** Ask before every call in this chat, whatever the tool says. */
    requiresApproval: Type.Optional(Type.Boolean()),
    /** Never allowed in this chat: not offered, and a call the model makes to it anyway is refused with a sentence it reads. */
    denied: Type.Optional(Type.Boolean()),
    /** How many characters of a result the model reads (default 16,000); the chat keeps the whole value. */
    resultLimit: Type.Optional(Type.Integer({ minimum: 1_000, maximum: 1_000_000 })),
    /** Always offered, also when the chat finds its other tools by search. */
    pinned: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);
export type ToolSelection = Static<typeof ToolSelectionSchema>;

/** A whole bundle (an MCP server is one) a chat reaches: its tools as they are now, the latest version of each. */
export const ChatBundleSchema = Type.Object(
  {
    bundleID: UuidV7Schema,
    /** Ask before every call of its tools in this chat. */
    requiresApproval: Type.Optional(Type.Boolean()),
    /** None of its tools are allowed in this chat. */
    denied: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);
export type ChatBundle = Static<typeof ChatBundleSchema>;

/**
 * How a chat offers its tools: `all` offers every one on every turn;
 * `search` offers the pinned ones and `tool_search`, and the model loads
 * the rest by searching; `auto` searches once the tools pass 30, or their
 * definitions a tenth of a typical context.
 */
/** Whose setting makes a call wait for the person: the tool's own, the chat's pick of it, or the chat's manual mode. */
export const ApprovalBySchema = Type.Union([Type.Literal('tool'), Type.Literal('selection'), Type.Literal('manual')]);

export const ToolDiscoverySchema = Type.Union([Type.Literal('all'), Type.Literal('search'), Type.Literal('auto')]);

/**
 * Why a chat's tools are offered as they are: asked for all; auto with few tools; asked for search; auto with many;
 * or all because search cannot be offered (a tool already has its name; the built-in cannot run; none here).
 */
export const DiscoveryWhySchema = Type.Union([
  Type.Literal('asked_all'),
  Type.Literal('few_tools'),
  Type.Literal('asked_search'),
  Type.Literal('many_tools'),
  Type.Literal('name_taken'),
  Type.Literal('search_cannot_run'),
  Type.Literal('no_search'),
]);
export type DiscoveryWhy = Static<typeof DiscoveryWhySchema>;
export type ToolDiscovery = Static<typeof ToolDiscoverySchema>;

export const ChatToolsSchema = Type.Object(
  {
    mode: Type.Union([Type.Literal('auto'), Type.Literal('none')]),
    /** Tools picked one by one: their own settings win over a bundle's. */
    selected: Type.Array(ToolSelectionSchema, { maxItems: 512 }),
    bundles: Type.Optional(Type.Array(ChatBundleSchema, { maxItems: 256 })),
    /** Absent: the default in Settings. */
    discovery: Type.Optional(ToolDiscoverySchema),
  },
  { additionalProperties: false },
);
export type ChatTools = Static<typeof ChatToolsSchema>;

/** After a failed tool call: tell the model and go on; stop the run; or stop once one tool has failed `toolErrorLimit` times in a row. */
export const OnToolErrorSchema = Type.Union([Type.Literal('continue'), Type.Literal('halt'), Type.Literal('halt_after')]);

export const TOOL_ERROR_LIMIT_DEFAULT = 3;

/** A JSON Schema the final answer must match (an object: a schema of `true` would not ask for anything). */
export const AnswerSchemaSchema = Type.Record(Type.String(), Type.Unknown());

/** What a chat is set to: everything chats.create and chats.update take. */
export const chatSettingsFields = {
  title: Type.String({ minLength: 1, maxLength: 200 }),
  providerId: ProviderIdSchema,
  /** Empty until one is picked (a provider that names no model): the chat says "Pick a model" and sends nothing. */
  model: Type.String({ maxLength: 200 }),
  system: Type.Optional(Type.String({ maxLength: 100_000 })),
  tools: ChatToolsSchema,
  maxTurns: Type.Integer({ minimum: 1, maximum: 100 }),
  onToolError: OnToolErrorSchema,
  /** "manual": every call the model makes waits for the person to run, edit or reject it (auto, the default, runs them unless a tool asks first). */
  toolRuns: Type.Optional(Type.Union([Type.Literal('auto'), Type.Literal('manual')])),
  /** With onToolError "halt_after": how many failures in a row of the same tool stop the run (default 3). */
  toolErrorLimit: Type.Optional(Type.Integer({ minimum: 2, maximum: 20 })),
  parallelToolCalls: Type.Boolean(),
  /** Sampling temperature sent with every request; absent, the server's default. */
  temperature: Type.Optional(Type.Number({ minimum: 0, maximum: 2 })),
  /** The final answer must be JSON matching this JSON Schema; absent, the answer is text. */
  answerSchema: Type.Optional(AnswerSchemaSchema),
};

import { Type, type Static } from '@sinclair/typebox';
import { ProviderIdSchema } from './chat.js';

export const ProviderKindSchema = Type.Union([Type.Literal('openai'), Type.Literal('azure'), Type.Literal('anthropic'), Type.Literal('gemini'), Type.Literal('scripted')]);

/** Azure OpenAI's api-version when a provider names none: the newest generally available one the openai SDK knows. */
export const AZURE_DEFAULT_API_VERSION = '2024-10-21';
const ApiVersionSchema = Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}(-preview)?$', hint: 'Write the API version as a date, such as 2024-10-21 or 2025-04-01-preview.' });
export type ProviderKind = Static<typeof ProviderKindSchema>;

/** One turn a scripted provider plays back: text, tool calls, or both. */
export const ScriptTurnSchema = Type.Object(
  {
    text: Type.Optional(Type.String()),
    toolCalls: Type.Optional(
      Type.Array(
        Type.Object(
          { name: Type.String({ minLength: 1 }), args: Type.Optional(Type.Record(Type.String(), Type.Unknown())) },
          { additionalProperties: false },
        ),
      ),
    ),
  },
  { additionalProperties: false },
);
export type ScriptTurn = Static<typeof ScriptTurnSchema>;

const BaseUrlSchema = Type.String({ format: 'uri', pattern: '^https?://', maxLength: 2048 });

/** What providers.put takes. The API key goes to the secret store and never comes back. */
export const ProviderInputSchema = Type.Object(
  {
    kind: ProviderKindSchema,
    displayName: Type.String({ minLength: 1, maxLength: 100 }),
    baseURL: Type.Optional(BaseUrlSchema),
    apiKey: Type.Optional(Type.String({ minLength: 1, maxLength: 4096 })),
    defaultModel: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
    /** Azure OpenAI: the api-version its requests carry (models are the deployments' names). */
    apiVersion: Type.Optional(ApiVersionSchema),
    /** Scripted providers: the turns to play back, in order. */
    script: Type.Optional(Type.Array(ScriptTurnSchema, { maxItems: 200 })),
    /** Scripted providers: pause between streamed pieces, to watch streaming happen. */
    chunkDelayMs: Type.Optional(Type.Integer({ minimum: 0, maximum: 5_000 })),
  },
  { additionalProperties: false },
);
export type ProviderInput = Static<typeof ProviderInputSchema>;

/** A provider as stored (providers.json): no key, only whether one is stored. */
export const ProviderConfigSchema = Type.Object(
  {
    id: ProviderIdSchema,
    kind: ProviderKindSchema,
    displayName: Type.String(),
    baseURL: Type.Optional(Type.String()),
    defaultModel: Type.Optional(Type.String()),
    apiVersion: Type.Optional(Type.String()),
    script: Type.Optional(Type.Array(ScriptTurnSchema)),
    chunkDelayMs: Type.Optional(Type.Integer({ minimum: 0 })),
  },
  { additionalProperties: false },
);
export type ProviderConfig = Static<typeof ProviderConfigSchema>;

export const ProviderViewSchema = Type.Object(
  {
    ...ProviderConfigSchema.properties,
    hasApiKey: Type.Boolean(),
    /** `environment`: added at start from OPENAI_* / ANTHROPIC_* variables; not saved. */
    source: Type.Union([Type.Literal('saved'), Type.Literal('environment')]),
  },
  { additionalProperties: false },
);
export type ProviderView = Static<typeof ProviderViewSchema>;

/**
 * What a model of a provider can do, as far as Toolbelt knows: from the
 * provider's kind, the server's model list, and what the server answered
 * before (a refusal of tools, streamed turns that dropped their calls).
 */
export const ModelCapabilitiesSchema = Type.Object(
  {
    /** `refused`: this model refused tools earlier; they are not sent again until its settings change. */
    tools: Type.Union([Type.Literal('yes'), Type.Literal('refused')]),
    /** Why it refused, in the server's words. */
    toolsRefusal: Type.Optional(Type.String()),
    /** `switchable`: several calls at once, or one at a time as the chat says; `always`: the model decides (Gemini). */
    parallelToolCalls: Type.Union([Type.Literal('switchable'), Type.Literal('always')]),
    /** `whole`: this server dropped the tool calls of streamed turns, so turns with tools are asked for whole. */
    streamingWithTools: Type.Union([Type.Literal('yes'), Type.Literal('whole')]),
    /** Whether the model reads images (tool results that are images go as a note when it does not). */
    images: Type.Union([Type.Literal('yes'), Type.Literal('no'), Type.Literal('unknown')]),
    /** How a structured answer is held to its schema: the server's response_format, or an answer tool the model must call. */
    structuredAnswer: Type.Union([Type.Literal('response_format'), Type.Literal('answer_tool'), Type.Literal('checked_only')]),
    /** How many tokens of input the model takes, when known; `contextSource` says from where. */
    contextTokens: Type.Optional(Type.Integer({ minimum: 1 })),
    contextSource: Type.Optional(Type.Union([Type.Literal('server'), Type.Literal('known')])),
  },
  { additionalProperties: false },
);
export type ModelCapabilities = Static<typeof ModelCapabilitiesSchema>;

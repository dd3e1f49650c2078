import { Type, type Static } from '@sinclair/typebox';
import { OnToolErrorSchema, ProviderIdSchema, ToolSelectionSchema } from './chat.js';

/** How deep agents may call agents: a fourth level is refused with a sentence. */
export const AGENT_MAX_DEPTH = 3;
export const AGENT_MAX_TURNS_DEFAULT = 6;

/**
 * An agent tool: calling it runs a model of its own, with its own system
 * prompt and tools, for up to maxTurns; its final answer is the result.
 */
export const AgentImplSchema = Type.Object(
  {
    providerId: ProviderIdSchema,
    model: Type.String({ minLength: 1, maxLength: 200, hint: 'Name the model the agent runs on, such as gpt-4o-mini.' }),
    system: Type.Optional(Type.String({ maxLength: 100_000 })),
    /** The tools the agent's model may call, chosen as a chat chooses them. */
    tools: Type.Array(ToolSelectionSchema, { maxItems: 64 }),
    maxTurns: Type.Optional(Type.Integer({ minimum: 1, maximum: 20, hint: 'Use a whole number from 1 to 20.' })),
    /** The calls of one turn run at the same time (default), or one after another. */
    parallelToolCalls: Type.Optional(Type.Boolean()),
    /** After a failed call, as a chat: tell the model and go on (default), stop, or stop once one tool failed `toolErrorLimit` times in a row. */
    onToolError: Type.Optional(OnToolErrorSchema),
    toolErrorLimit: Type.Optional(Type.Integer({ minimum: 2, maximum: 20, hint: 'Use a whole number from 2 to 20.' })),
  },
  { additionalProperties: false },
);
export type AgentImpl = Static<typeof AgentImplSchema>;

import { Type, type Static } from '@sinclair/typebox';

/** One step of an agent's run, shown folded inside the call's card. */
export const AgentStepSchema = Type.Object(
  {
    turn: Type.Integer({ minimum: 1 }),
    kind: Type.Union([Type.Literal('text'), Type.Literal('call')]),
    /** The model's words (cut at 2,000 characters). */
    text: Type.Optional(Type.String()),
    /** A call: the name the model used, the tool's name, its arguments, and how it went. */
    name: Type.Optional(Type.String()),
    tool: Type.Optional(Type.String()),
    args: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
    ok: Type.Optional(Type.Boolean()),
    /** The result or the error, cut at 500 characters. */
    summary: Type.Optional(Type.String()),
    durationMs: Type.Optional(Type.Number({ minimum: 0 })),
    /** A call that was itself an agent's: its own steps. */
    steps: Type.Optional(Type.Array(Type.Unknown(), { maxItems: 200 })),
  },
  { additionalProperties: false },
);
export type AgentStep = Static<typeof AgentStepSchema>;

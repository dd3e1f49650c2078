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
    /** A recipe's step: its name in the recipe (`kind` is 'call'). */
    stepId: Type.Optional(Type.String({ maxLength: 64 })),
    /** A recipe's step that did not run: why (its condition did not hold). */
    skipped: Type.Optional(Type.String({ maxLength: 500 })),
    /** A recipe's step taken from the run it was run again from, not run now. */
    reused: Type.Optional(Type.Boolean()),
    /** A recipe's for-each step: how many times it ran. */
    runs: Type.Optional(Type.Integer({ minimum: 0 })),
    /** A call that was itself an agent's: its own steps. */
    steps: Type.Optional(Type.Array(Type.Unknown(), { maxItems: 200 })),
  },
  { additionalProperties: false },
);
export type AgentStep = Static<typeof AgentStepSchema>;

import { Type } from '@sinclair/typebox';
import { defineOperation } from '../operation.js';
import { HookRunSchema, HooksSchema, TOOL_HOOK_EVENTS } from '../schemas/hooks.js';
import { ToolNameSchema, UuidV7Schema, VersionSchema } from '../schemas/ids.js';

/** What hooks would make of a call: their runs, and the call's fate had it been real. */
export const HookTrialSchema = Type.Object(
  {
    runs: Type.Array(HookRunSchema),
    /** Before a call: it would run (`goes-on`), run with no approval asked (`allowed`), ask the person (`asks`), or not run (`refused`). After one: `goes-on`. */
    outcome: Type.Union([Type.Literal('goes-on'), Type.Literal('allowed'), Type.Literal('asks'), Type.Literal('refused')]),
    /** Why it is refused or asks, as the model or the person would read it; with the error code a refusal has. */
    message: Type.Optional(Type.String()),
    code: Type.Optional(Type.String()),
    /** The input a PreToolUse hook rewrote the call's into. */
    updatedInput: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
    /** What the model would read with the result. */
    context: Type.Array(Type.String()),
  },
  { additionalProperties: false },
);

export const hooksTry = defineOperation({
  name: 'hooks.try',
  summary:
    "Run the hooks of one event on a sample call of a tool, without running the tool: the saved hooks (the person's and the tool's bundle's, when switched on) or, given `hooks`, those only (a draft, before it is saved).",
  params: Type.Object(
    {
      event: Type.Union(TOOL_HOOK_EVENTS.map((event) => Type.Literal(event))),
      bundleID: UuidV7Schema,
      toolSlug: ToolNameSchema,
      version: VersionSchema,
      args: Type.Record(Type.String(), Type.Unknown()),
      /** After a call (PostToolUse): the answer the hooks are told it gave. */
      response: Type.Optional(Type.Unknown()),
      /** After a failed call (PostToolUseFailure): its error message. */
      error: Type.Optional(Type.String({ maxLength: 4_000 })),
      hooks: Type.Optional(HooksSchema),
    },
    { additionalProperties: false },
  ),
  result: HookTrialSchema,
  http: { method: 'POST', path: '/api/hooks/try' },
});

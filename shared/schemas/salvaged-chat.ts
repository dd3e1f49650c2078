import { Type, type Static } from '@sinclair/typebox';

/** One message of a chat file that is not a valid chat, as far as it could be read. */
export const SalvagedMessageSchema = Type.Object(
  {
    role: Type.Union([Type.Literal('user'), Type.Literal('assistant'), Type.Literal('tool-run'), Type.Literal('unknown')]),
    text: Type.String(),
    toolCalls: Type.Array(Type.Object({ name: Type.String(), status: Type.String() }, { additionalProperties: false })),
  },
  { additionalProperties: false },
);
export type SalvagedMessage = Static<typeof SalvagedMessageSchema>;

export const SalvagedChatSchema = Type.Object(
  {
    title: Type.Optional(Type.String()),
    messages: Type.Array(SalvagedMessageSchema),
    /** The file's text when it is not JSON (or not an object), cut at 200,000 characters. */
    rawText: Type.Optional(Type.String()),
  },
  { additionalProperties: false },
);
export type SalvagedChat = Static<typeof SalvagedChatSchema>;

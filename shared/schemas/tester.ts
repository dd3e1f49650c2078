import { Type, type Static } from '@sinclair/typebox';
import { TimestampSchema, UuidV7Schema } from './ids.js';
import { InvokeResultSchema } from './invocation.js';

/** A run of a tool from the tester, kept with the tool: its arguments and what came back (secrets already masked). */
export const TesterRunSchema = Type.Object(
  {
    id: UuidV7Schema,
    at: TimestampSchema,
    /** The tool's version at the time (a tool's history spans its versions). */
    version: Type.String(),
    args: Type.Record(Type.String(), Type.Unknown()),
    result: InvokeResultSchema,
    /** The result was too big to keep whole: its value is a text preview and its trace is left out. */
    cut: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);
export type TesterRun = Static<typeof TesterRunSchema>;

export const ExampleNameSchema = Type.String({ minLength: 1, maxLength: 80, pattern: '\\S', hint: 'Name the example in a few words (up to 80 characters).' });

/** Arguments a person saved under a name, to run the tool with again. */
export const TesterExampleSchema = Type.Object(
  { name: ExampleNameSchema, args: Type.Record(Type.String(), Type.Unknown()), savedAt: TimestampSchema },
  { additionalProperties: false },
);
export type TesterExample = Static<typeof TesterExampleSchema>;

export const TesterBookSchema = Type.Object(
  { runs: Type.Array(TesterRunSchema), examples: Type.Array(TesterExampleSchema) },
  { additionalProperties: false },
);
export type TesterBook = Static<typeof TesterBookSchema>;

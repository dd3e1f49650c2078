import { Type, type Static } from '@sinclair/typebox';

/** A file in the data folder that cannot be used: where it is and why. It is never rewritten for you. */
export const FileProblemSchema = Type.Object(
  { file: Type.String(), reason: Type.String() },
  { additionalProperties: false },
);
export type FileProblem = Static<typeof FileProblemSchema>;

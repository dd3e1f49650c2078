import { Type, type Static } from '@sinclair/typebox';
import { SECRET_NAME_PATTERN } from '../tools/templates.js';

/** The longest script a tool holds. */
export const MAX_SCRIPT_CHARS = 200_000;

/**
 * A script tool: one module whose default export is the tool, in TypeScript
 * or JavaScript, run in the script sandbox; the secrets it may read by
 * `secret("NAME")`, and limits tighter or looser than the defaults (64 MB,
 * 5 s).
 */
export const ScriptImplSchema = Type.Object(
  {
    language: Type.Union([Type.Literal('typescript'), Type.Literal('javascript')]),
    source: Type.String({ minLength: 1, maxLength: MAX_SCRIPT_CHARS, hint: 'Write one module whose default export is a function.' }),
    secrets: Type.Optional(Type.Array(Type.String({ pattern: SECRET_NAME_PATTERN }), { uniqueItems: true, maxItems: 32 })),
    limits: Type.Optional(
      Type.Object(
        {
          memoryMb: Type.Optional(Type.Integer({ minimum: 1, maximum: 256 })),
          timeoutMs: Type.Optional(Type.Integer({ minimum: 50, maximum: 60_000 })),
          maxResponseBytes: Type.Optional(Type.Integer({ minimum: 1, maximum: 50 * 1024 * 1024 })),
        },
        { additionalProperties: false },
      ),
    ),
  },
  { additionalProperties: false },
);
export type ScriptImpl = Static<typeof ScriptImplSchema>;

import { Type } from '@sinclair/typebox';

/** Lower-case RFC 9562 UUID version 7: sortable by creation time. */
export const UUID_V7_PATTERN = '^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$';

export const UuidV7Schema = Type.String({
  pattern: UUID_V7_PATTERN,
  description: 'A lower-case UUID version 7',
});

// Letters (with their combining marks, so scripts like Devanagari work),
// decimal digits and the ASCII dash; at least one letter or digit, so "-"
// alone is no name. Versions may also contain dots, but "." and ".." are not
// versions. Lengths count code points ("runes"), as ajv's maxLength does.
export const SLUG_PATTERN = '^(?=.*[\\p{L}\\p{Nd}])[\\p{L}\\p{M}\\p{Nd}-]+$';
export const VERSION_PATTERN = '^(?=.*[\\p{L}\\p{Nd}])[\\p{L}\\p{M}\\p{Nd}.-]+$';

/** What to do about a slug or version that is refused, said to a person. */
export const SLUG_HINT = 'Use letters, digits and "-" only, up to 64 characters.';
export const VERSION_HINT = 'Use letters, digits, "-" and "." only, up to 64 characters (for example v2).';

export const SlugSchema = Type.String({
  minLength: 1,
  maxLength: 64,
  pattern: SLUG_PATTERN,
  description: 'Letters, digits and "-" (1–64 characters, case-sensitive)',
  hint: SLUG_HINT,
});

/**
 * A tool as it is addressed: tools of read-only sources keep the names they
 * come with, and MCP tool names also use "_" and "." (up to 128 characters).
 * Tools people write (tools.put) still take SlugSchema.
 */
export const TOOL_NAME_PATTERN = '^(?=.*[\\p{L}\\p{Nd}])[\\p{L}\\p{M}\\p{Nd}._-]+$';

export const ToolNameSchema = Type.String({
  minLength: 1,
  maxLength: 128,
  pattern: TOOL_NAME_PATTERN,
  description: 'A tool slug, or the name a read-only source gives it (letters, digits, "-", "_" and ".")',
});

export const VersionSchema = Type.String({
  minLength: 1,
  maxLength: 64,
  pattern: VERSION_PATTERN,
  description: 'Letters, digits, "-" and "." (1–64 characters, case-sensitive)',
  hint: VERSION_HINT,
});

export const TimestampSchema = Type.String({ format: 'date-time', description: 'ISO-8601 UTC' });

export const TagSchema = Type.String({ minLength: 1, maxLength: 64, pattern: '^[^\\s,]+$', hint: 'A tag is one word of up to 64 characters, without spaces or commas.' });

const slugRegExp = new RegExp(SLUG_PATTERN, 'u');
const versionRegExp = new RegExp(VERSION_PATTERN, 'u');
const toolNameRegExp = new RegExp(TOOL_NAME_PATTERN, 'u');
const uuidRegExp = new RegExp(UUID_V7_PATTERN);

function runeLength(value: string): number {
  return [...value].length;
}

export function isSlug(value: string): boolean {
  return runeLength(value) >= 1 && runeLength(value) <= 64 && slugRegExp.test(value);
}

export function isVersion(value: string): boolean {
  return runeLength(value) >= 1 && runeLength(value) <= 64 && versionRegExp.test(value);
}

export function isUuidV7(value: string): boolean {
  return uuidRegExp.test(value);
}

/** A name a tool can be addressed by (its slug, or the name a read-only source gives it). */
export function isToolName(value: string): boolean {
  return value.length <= 128 && toolNameRegExp.test(value);
}

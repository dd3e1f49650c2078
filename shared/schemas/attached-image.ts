import { Type, type Static } from '@sinclair/typebox';

/**
 * The picture formats every provider with vision takes (OpenAI, Anthropic,
 * Gemini accept these four) and a browser draws without scripts.
 */
export const PICTURE_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'] as const;

/** Base64 characters of one picture: 3 MB of image, under each provider's own limit (Anthropic's 5 MB is the lowest). */
export const MAX_PICTURE_CHARS = 4_000_000;

const BASE64_PATTERN = '^[A-Za-z0-9+/]+={0,2}$';
const BASE64 = new RegExp(BASE64_PATTERN);

/** A picture that goes to the model with a message (a prompt's or a resource's), as base64. */
export const AttachedImageSchema = Type.Object(
  {
    mimeType: Type.Union(PICTURE_TYPES.map((type) => Type.Literal(type))),
    data: Type.String({ minLength: 1, maxLength: MAX_PICTURE_CHARS, pattern: BASE64_PATTERN }),
  },
  { additionalProperties: false },
);
export type AttachedImage = Static<typeof AttachedImageSchema>;

function isPictureType(mimeType: string | undefined): mimeType is AttachedImage['mimeType'] {
  return (PICTURE_TYPES as readonly string[]).includes(mimeType ?? '');
}

/** Data a server sent as a picture, when models can take it (the format, the size, plain base64), else null: it is then only named. */
export function pictureFrom(mimeType: string | undefined, data: string | undefined): AttachedImage | null {
  if (!isPictureType(mimeType) || typeof data !== 'string' || data.length === 0 || data.length > MAX_PICTURE_CHARS || !BASE64.test(data)) return null;
  return { mimeType, data };
}

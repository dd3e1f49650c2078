import { Type, type Static } from '@sinclair/typebox';

/** What a person may attach to one message: files, their size each and in all (as the issue and other chat apps set them). */
export const PERSON_FILE_LIMITS = { files: 20, fileBytes: 20 * 1024 * 1024, messageBytes: 50 * 1024 * 1024 } as const;

/** Base64 of the most a message may carry. */
const MAX_BASE64 = Math.ceil(PERSON_FILE_LIMITS.messageBytes / 3) * 4;

/** A file as `chats.send` takes it: its name, the type its sender says, its bytes as base64 (checked against what they are). */
export const PersonFileUploadSchema = Type.Object(
  {
    kind: Type.Literal('file'),
    name: Type.String({ minLength: 1, maxLength: 255 }),
    mediaType: Type.String({ maxLength: 200 }),
    // As long as a whole message of files may be: one too large for a file is then refused with its name and size.
    dataBase64: Type.String({ minLength: 1, maxLength: MAX_BASE64 }),
  },
  { additionalProperties: false },
);
export type PersonFileUpload = Static<typeof PersonFileUploadSchema>;

/** What Toolbelt makes of a file's bytes: a picture models see, a PDF, or text read with its name. */
export const PersonFileKindSchema = Type.Union([Type.Literal('picture'), Type.Literal('pdf'), Type.Literal('text')]);
export type PersonFileKind = Static<typeof PersonFileKindSchema>;

/** A file the person attached, as the message keeps it: the bytes live once in the data folder, named by their SHA-256. */
export const PersonFileSchema = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 255 }),
    kind: PersonFileKindSchema,
    /** The type its bytes are (image/png, application/pdf, text/plain…), not the one its sender said. */
    mediaType: Type.String({ maxLength: 200 }),
    sha256: Type.String({ pattern: '^[0-9a-f]{64}$' }),
    bytes: Type.Integer({ minimum: 0 }),
  },
  { additionalProperties: false },
);
export type PersonFile = Static<typeof PersonFileSchema>;

/** A kept file as one model request sends it: its bytes (pictures, PDFs) or text read back, or why it was left out. */
export type LoadedFile = PersonFile & { data?: string; text?: string; leftOut?: string };

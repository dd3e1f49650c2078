import { Type, type Static } from '@sinclair/typebox';
import { BundleHooksSchema, HooksDigestSchema } from './hooks.js';
import { BundleHttpSchema } from './http-impl.js';
import { SlugSchema, TimestampSchema, UuidV7Schema } from './ids.js';

export const BundleFileSchema = Type.Object(
  {
    schemaVersion: Type.Literal('1'),
    bundleID: UuidV7Schema,
    slug: SlugSchema,
    displayName: Type.String({ minLength: 1, maxLength: 200 }),
    description: Type.String({ maxLength: 8_000 }),
    isEnabled: Type.Boolean(),
    isBuiltIn: Type.Boolean(),
    /** Connection settings its HTTP tools inherit. */
    http: Type.Optional(BundleHttpSchema),
    /** Hooks before and after its tools' calls (Claude Code's shape, tool events only); they travel in its ZIP. */
    hooks: Type.Optional(BundleHooksSchema),
    /** The digest of the hooks the person switched on; hooks that differ from it (changed, or from a ZIP) do not run. Never exported. */
    hooksSwitchedOn: Type.Optional(HooksDigestSchema),
    createdAt: TimestampSchema,
    modifiedAt: TimestampSchema,
    softDeletedAt: Type.Optional(TimestampSchema),
  },
  { additionalProperties: false, $id: 'BundleFile' },
);
export type BundleFile = Static<typeof BundleFileSchema>;

export const BUNDLE_FILE_KEY_ORDER = Object.keys(BundleFileSchema.properties);

export const BundleInputSchema = Type.Object(
  {
    slug: SlugSchema,
    displayName: BundleFileSchema.properties.displayName,
    description: Type.Optional(BundleFileSchema.properties.description),
    isEnabled: Type.Optional(Type.Boolean()),
    http: Type.Optional(BundleHttpSchema),
    /** Saved off: `bundles.patch` with `hooksOn` switches on exactly these (their digest is in the bundle's view). */
    hooks: Type.Optional(BundleHooksSchema),
  },
  { additionalProperties: false },
);
export type BundleInput = Static<typeof BundleInputSchema>;

/** A bundle as the API returns it. */
const { hooksSwitchedOn: _switchedOn, ...viewedFileProperties } = BundleFileSchema.properties;
export const BundleViewSchema = Type.Object(
  {
    ...viewedFileProperties,
    /** With hooks: their digest, what `bundles.patch`'s `hooksOn` names to switch exactly these on. */
    hooksDigest: Type.Optional(HooksDigestSchema),
    /** Its hooks run (the person switched these very hooks on). */
    hooksOn: Type.Optional(Type.Boolean()),
    status: Type.Literal('valid'),
    toolCount: Type.Integer({ minimum: 0 }),
    /** From a source Toolbelt does not write (built-ins, an MCP server): only its switches change. */
    readOnly: Type.Boolean(),
  },
  { additionalProperties: false },
);
export type BundleView = Static<typeof BundleViewSchema>;

export const InvalidBundleEntrySchema = Type.Object(
  {
    status: Type.Literal('invalid'),
    bundleID: Type.String(),
    file: Type.String(),
    invalidReason: Type.String(),
    slug: Type.Optional(Type.String()),
    displayName: Type.Optional(Type.String()),
    /** Only Toolbelt's own files are in the way: `bundles.removeFolder` can clear it. */
    removable: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);
export type InvalidBundleEntry = Static<typeof InvalidBundleEntrySchema>;

export const BundleEntrySchema = Type.Union([BundleViewSchema, InvalidBundleEntrySchema]);
export type BundleEntry = Static<typeof BundleEntrySchema>;

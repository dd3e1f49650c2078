import { Type, type Static } from '@sinclair/typebox';
import { BundleHttpSchema } from './http-impl.js';
import { SlugSchema, UuidV7Schema, VersionSchema } from './ids.js';
import { ToolInputSchema } from './tool.js';

/** Large public descriptions (GitHub's REST API) run to 15 MB of JSON. */
export const MAX_IMPORT_TEXT_CHARS = 40_000_000;

export const PreviewIdSchema = Type.String({ pattern: '^[A-Za-z0-9_-]{16,64}$' });

/** Where an API description comes from: its text (JSON or YAML, pasted or read from a file), or a URL on an allowed host. */
export const ImportSourceSchema = Type.Union([
  Type.Object({ text: Type.String({ minLength: 1, maxLength: MAX_IMPORT_TEXT_CHARS }), fileName: Type.Optional(Type.String({ maxLength: 260 })) }, { additionalProperties: false }),
  Type.Object({ url: Type.String({ pattern: '^https?://', maxLength: 2048, hint: 'Give the address of the description, starting with http:// or https://.' }) }, { additionalProperties: false }),
]);
export type ImportSource = Static<typeof ImportSourceSchema>;

/**
 * A secret an import's tools name. One the person has already set (for
 * something else, perhaps) is used only when they say so (`useSecrets`);
 * otherwise the bundle gets its own, `ownName`.
 */
const secretBinding = {
  isSet: Type.Boolean(),
  ownName: Type.Optional(Type.String()),
};

/** Hosts the import would let its tools reach (its bundle's allowedHosts): each allowed only when the person confirms it (`allowHosts`). */
const ImportHostsSchema = Type.Array(Type.String());

/** What the person confirmed in an import's preview. */
export const importConfirmations = {
  /** Secrets already set that the imported tools may use as they are (see `ownName`). */
  useSecrets: Type.Optional(Type.Array(Type.String({ maxLength: 128 }), { maxItems: 200, uniqueItems: true })),
  /** Hosts of the preview's `hosts` the imported bundle may reach; the others are not allowed. */
  allowHosts: Type.Optional(Type.Array(Type.String({ maxLength: 260 }), { maxItems: 100, uniqueItems: true })),
};

/** One operation of the API and the tool it becomes. */
export const ImportedOperationSchema = Type.Object(
  {
    /** `GET /pets/{petId}`: the operation's identity across imports. */
    key: Type.String(),
    method: Type.String(),
    path: Type.String(),
    operationId: Type.Optional(Type.String()),
    slug: SlugSchema,
    displayName: Type.String(),
    tags: Type.Array(Type.String()),
    deprecated: Type.Optional(Type.Boolean()),
    /** The tool written for it; absent when it cannot become one (`skipped` says why). */
    tool: Type.Optional(ToolInputSchema),
    skipped: Type.Optional(Type.String()),
    /** How the tool departs from the description (a GET's form body sent in its query), shown in the preview. */
    note: Type.Optional(Type.String()),
    /** Against the bundle it goes into: a tool it adds, one that differs from what is there, or one already the same. */
    status: Type.Union([Type.Literal('new'), Type.Literal('changed'), Type.Literal('same')]),
    /** For a changed tool: the version there now, and the one the import writes. */
    currentVersion: Type.Optional(VersionSchema),
    nextVersion: Type.Optional(VersionSchema),
  },
  { additionalProperties: false },
);
export type ImportedOperation = Static<typeof ImportedOperationSchema>;

export const ImportPreviewSchema = Type.Object(
  {
    title: Type.String(),
    /** The description's own format: "OpenAPI 3.1.0", "Swagger 2.0". */
    format: Type.String(),
    apiVersion: Type.Optional(Type.String()),
    bundle: Type.Object(
      { slug: SlugSchema, displayName: Type.String(), description: Type.String(), http: Type.Optional(BundleHttpSchema) },
      { additionalProperties: false },
    ),
    /** Secrets the tools need (values are set in Settings → Secrets; never part of an import). */
    secrets: Type.Array(Type.Object({ name: Type.String(), description: Type.String(), ...secretBinding }, { additionalProperties: false })),
    hosts: ImportHostsSchema,
    /** What the import could not carry over, in sentences. */
    notes: Type.Array(Type.String()),
    operations: Type.Array(ImportedOperationSchema),
    /** Tools of the bundle the description no longer has (kept; delete them by hand if they are gone for good). */
    gone: Type.Array(Type.Object({ slug: Type.String(), version: Type.String(), displayName: Type.String() }, { additionalProperties: false })),
    /** The bundle a re-import goes into. */
    bundleID: Type.Optional(UuidV7Schema),
    /** Names this preview's reading of the description for Import (`previewId`), so the text is not sent again; kept 30 minutes, taken by an import. */
    previewId: Type.Optional(PreviewIdSchema),
  },
  { additionalProperties: false },
);
export type ImportPreview = Static<typeof ImportPreviewSchema>;

export const ImportResultSchema = Type.Object(
  {
    bundleID: UuidV7Schema,
    created: Type.Boolean(),
    written: Type.Array(Type.Object({ slug: Type.String(), version: Type.String(), status: Type.Union([Type.Literal('new'), Type.Literal('changed')]) }, { additionalProperties: false })),
    unchanged: Type.Integer({ minimum: 0 }),
  },
  { additionalProperties: false },
);
export type ImportResult = Static<typeof ImportResultSchema>;

/** A bundle packed as a .zip (base64 across IPC and HTTP): bundle.json, its tools, a manifest of the secrets it needs. */
export const BundleArchiveSchema = Type.Object(
  { fileName: Type.String(), base64: Type.String(), secrets: Type.Array(Type.String()) },
  { additionalProperties: false },
);

export const ArchivePreviewSchema = Type.Object(
  {
    bundle: Type.Object({ slug: Type.String(), displayName: Type.String(), description: Type.String() }, { additionalProperties: false }),
    tools: Type.Array(Type.Object({ slug: Type.String(), version: Type.String(), displayName: Type.String(), type: Type.String() }, { additionalProperties: false })),
    secrets: Type.Array(Type.Object({ name: Type.String(), ...secretBinding }, { additionalProperties: false })),
    hosts: ImportHostsSchema,
    /** The bundle's hooks, each with what it runs in full: written off, to be switched on by the person after reading them. */
    hooks: Type.Optional(
      Type.Array(
        Type.Object(
          {
            event: Type.String(),
            matcher: Type.Optional(Type.String()),
            type: Type.Union([Type.Literal('command'), Type.Literal('http'), Type.Literal('script')]),
            runs: Type.String(),
          },
          { additionalProperties: false },
        ),
      ),
    ),
    /** Bundles here with the same name: the import makes another one beside them, never over them. */
    sameName: Type.Array(Type.String()),
    /** The name and slug it is written under: the archive's, numbered ("Notes API (2)", notes-api-2) where those are taken. */
    importedAs: Type.Object({ slug: Type.String(), displayName: Type.String() }, { additionalProperties: false }),
    /** Set once it is written. */
    bundleID: Type.Optional(UuidV7Schema),
  },
  { additionalProperties: false },
);
export type ArchivePreview = Static<typeof ArchivePreviewSchema>;

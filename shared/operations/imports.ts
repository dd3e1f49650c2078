import { Type } from '@sinclair/typebox';
import { defineOperation } from '../operation.js';
import { UuidV7Schema } from '../schemas/ids.js';
import { ArchivePreviewSchema, BundleArchiveSchema, importConfirmations, ImportPreviewSchema, ImportResultSchema, ImportSourceSchema, MAX_IMPORT_TEXT_CHARS, PreviewIdSchema } from '../schemas/imports.js';

/** Room for the description's text as JSON (escapes and all). */
const IMPORT_BODY_BYTES = MAX_IMPORT_TEXT_CHARS * 2;

const openApiParams = {
  source: ImportSourceSchema,
  /** The bundle to import into: an existing one (a re-import) or a new one's client-chosen UUIDv7. */
  bundleID: Type.Optional(UuidV7Schema),
  /** Where the API is, when the description does not say (or says it relative to a file). */
  baseUrl: Type.Optional(Type.String({ pattern: '^https?://[^/?#]+', maxLength: 2048, hint: 'Start the base URL with http:// or https:// and a host.' })),
};

export const importsOpenApiPreview = defineOperation({
  name: 'imports.openapiPreview',
  summary: 'Read an OpenAPI 3.0/3.1 or Swagger 2.0 description: every operation with the tool it becomes, and against an existing bundle what is new, changed and gone.',
  params: Type.Object(openApiParams, { additionalProperties: false }),
  result: ImportPreviewSchema,
  http: { method: 'POST', path: '/api/imports/openapi/preview', maxBodyBytes: IMPORT_BODY_BYTES },
});

export const importsPrepare = defineOperation({
  name: 'imports.prepare',
  summary: 'Say a description is about to be given (the import screen opened): the process that reads one is started ahead, so the preview does not wait for it; answers once it is ready. Kept two minutes.',
  params: Type.Object({}, { additionalProperties: false }),
  result: Type.Object({}, { additionalProperties: false }),
  http: { method: 'POST', path: '/api/imports/prepare' },
});

export const importsOpenApiApply = defineOperation({
  name: 'imports.openapiApply',
  summary: 'Write the chosen operations as tools in one step: a new bundle appears whole or not at all; changed tools become new versions.',
  params: Type.Object(
    {
      ...openApiParams,
      // The description as read by a preview (its previewId), or its source again (needed when the base URL changed since).
      source: Type.Optional(ImportSourceSchema),
      previewId: Type.Optional(PreviewIdSchema),
      bundleID: UuidV7Schema,
      operations: Type.Array(Type.String({ maxLength: 4096 }), { minItems: 1, maxItems: 5000, uniqueItems: true }),
      ...importConfirmations,
    },
    { additionalProperties: false },
  ),
  result: ImportResultSchema,
  http: { method: 'POST', path: '/api/imports/openapi/apply', maxBodyBytes: IMPORT_BODY_BYTES },
});

export const bundlesExport = defineOperation({
  name: 'bundles.export',
  summary: 'A bundle as a .zip (base64): bundle.json, its tool files and a manifest naming the secrets it needs, never their values.',
  params: Type.Object({ bundleID: UuidV7Schema }, { additionalProperties: false }),
  result: BundleArchiveSchema,
  http: { method: 'GET', path: '/api/tools/bundles/:bundleID/export' },
});

export const bundlesImportArchive = defineOperation({
  name: 'bundles.importArchive',
  summary: 'Read a bundle .zip (base64) and, with apply, write it as a new bundle under the given ID in one step; an archive with path tricks or foreign files is refused whole.',
  params: Type.Object(
    { base64: Type.String({ minLength: 1, maxLength: 70_000_000 }), bundleID: UuidV7Schema, apply: Type.Optional(Type.Boolean()), ...importConfirmations },
    { additionalProperties: false },
  ),
  result: ArchivePreviewSchema,
  http: { method: 'POST', path: '/api/tools/bundles/:bundleID/import-archive', maxBodyBytes: 80_000_000 },
});

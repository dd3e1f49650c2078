import { Type } from '@sinclair/typebox';
import { defineOperation } from '../operation.js';
import { BundleEntrySchema, BundleInputSchema, BundleViewSchema } from '../schemas/bundle.js';
import { HooksDigestSchema } from '../schemas/hooks.js';
import { UuidV7Schema } from '../schemas/ids.js';

export const PageSizeSchema = Type.Integer({ minimum: 1, maximum: 500, default: 50 });
export const PageTokenSchema = Type.String({ minLength: 1, maxLength: 2048 });

const bundleRoute = '/api/tools/bundles/:bundleID';

export const bundlesPut = defineOperation({
  name: 'bundles.put',
  summary: 'Create a bundle with a client-chosen UUIDv7, or replace one (restores a deleted one).',
  params: Type.Object({ bundleID: UuidV7Schema, ...BundleInputSchema.properties }, { additionalProperties: false }),
  result: BundleViewSchema,
  http: { method: 'PUT', path: bundleRoute },
});

export const bundlesPatch = defineOperation({
  name: 'bundles.patch',
  summary: "Switch a bundle on or off (built-ins too), or its hooks: `hooksOn` with the digest of the hooks the person saw switches exactly those on (refused if they changed since), `false` off.",
  params: Type.Object(
    {
      bundleID: UuidV7Schema,
      isEnabled: Type.Optional(Type.Boolean()),
      hooksOn: Type.Optional(Type.Union([HooksDigestSchema, Type.Literal(false)])),
    },
    { additionalProperties: false, minProperties: 2 },
  ),
  result: BundleViewSchema,
  http: { method: 'PATCH', path: bundleRoute },
});

export const bundlesDelete = defineOperation({
  name: 'bundles.delete',
  summary: 'Soft-delete a bundle: hidden now, folder removed later once it has no tools.',
  params: Type.Object({ bundleID: UuidV7Schema }, { additionalProperties: false }),
  result: Type.Null(),
  http: { method: 'DELETE', path: bundleRoute, successStatus: 204 },
});

export const bundlesRemoveFolder = defineOperation({
  name: 'bundles.removeFolder',
  summary: "Remove a bundle folder that is not a working bundle (bundle.json missing, or deleted and kept): only Toolbelt's own files; anything else is a conflict naming it.",
  params: Type.Object({ bundleID: UuidV7Schema }, { additionalProperties: false }),
  result: Type.Null(),
  http: { method: 'POST', path: `${bundleRoute}/remove-folder`, successStatus: 204 },
});

export const bundlesList = defineOperation({
  name: 'bundles.list',
  summary: 'Bundles, built-ins first, then by name; invalid files only with includeDisabled.',
  params: Type.Object(
    {
      bundleIDs: Type.Optional(Type.Array(UuidV7Schema, { maxItems: 500 })),
      includeDisabled: Type.Optional(Type.Boolean()),
      pageSize: Type.Optional(PageSizeSchema),
      pageToken: Type.Optional(PageTokenSchema),
    },
    { additionalProperties: false },
  ),
  result: Type.Object(
    { bundles: Type.Array(BundleEntrySchema), nextPageToken: Type.Optional(Type.String()) },
    { additionalProperties: false },
  ),
  http: { method: 'GET', path: '/api/tools/bundles' },
});

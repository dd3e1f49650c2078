import { Type } from '@sinclair/typebox';
import { defineOperation } from '../operation.js';
import { FileProblemSchema } from '../schemas/file-problem.js';
import { SecretNameSchema, SettingsPatchSchema, SettingsSchema } from '../schemas/settings.js';
import { SecretStorageKindSchema } from '../schemas/secret-storage.js';

/** Settings as the core runs on them; `problem` says why they are the defaults (settings.json cannot be used). */
const SettingsViewSchema = Type.Object({ ...SettingsSchema.properties, problem: Type.Optional(FileProblemSchema) }, { additionalProperties: false });

export const settingsGet = defineOperation({
  name: 'settings.get',
  summary: 'Allowed hosts, readable folders, theme; and the problem with settings.json, if it has one.',
  params: Type.Object({}, { additionalProperties: false }),
  result: SettingsViewSchema,
  http: { method: 'GET', path: '/api/settings' },
});

export const settingsPatch = defineOperation({
  name: 'settings.patch',
  summary: 'Change some settings; the others stay.',
  params: SettingsPatchSchema,
  result: SettingsSchema,
  http: { method: 'PATCH', path: '/api/settings' },
});

const SecretInfo = Type.Object(
  { name: SecretNameSchema, updatedAt: Type.String({ format: 'date-time' }) },
  { additionalProperties: false },
);

export const secretsList = defineOperation({
  name: 'secrets.list',
  summary: 'Names of stored secrets and how they are kept; never values.',
  params: Type.Object({}, { additionalProperties: false }),
  result: Type.Object(
    {
      storage: Type.Object(
        {
          osProtected: Type.Boolean(),
          /** How they are kept, in English (for those who read the API). */
          description: Type.String(),
          /** How they are kept, as a code the window says in the person's language, with where (a key file, a keyring). */
          kind: SecretStorageKindSchema,
          where: Type.Optional(Type.String()),
        },
        { additionalProperties: false },
      ),
      secrets: Type.Array(SecretInfo),
    },
    { additionalProperties: false },
  ),
  http: { method: 'GET', path: '/api/secrets' },
});

export const secretsPut = defineOperation({
  name: 'secrets.put',
  summary: 'Set or replace a secret value (write-only).',
  params: Type.Object(
    { name: SecretNameSchema, value: Type.String({ minLength: 1, maxLength: 65_536 }) },
    { additionalProperties: false },
  ),
  result: SecretInfo,
  http: { method: 'PUT', path: '/api/secrets/:name' },
});

export const secretsDelete = defineOperation({
  name: 'secrets.delete',
  summary: 'Forget a secret.',
  params: Type.Object({ name: SecretNameSchema }, { additionalProperties: false }),
  result: Type.Null(),
  http: { method: 'DELETE', path: '/api/secrets/:name', successStatus: 204 },
});

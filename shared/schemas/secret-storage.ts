import { Type, type Static } from '@sinclair/typebox';

/**
 * How secrets are kept: by the operating system's keychain; with a key file in the data folder (the browser host);
 * with Electron's fixed key because no keyring was found and the person opted in; or not at all (no secure storage
 * offered; no keyring and no opt-in).
 */
export const SecretStorageKindSchema = Type.Union([
  Type.Literal('os'),
  Type.Literal('key_file'),
  Type.Literal('fixed_key'),
  Type.Literal('no_secure_storage'),
  Type.Literal('no_keyring'),
]);
export type SecretStorageKind = Static<typeof SecretStorageKindSchema>;

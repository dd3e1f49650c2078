import type { SecretStorageKind } from '../../shared/schemas/secret-storage.js';

/**
 * Encrypts secret values at rest. Electron uses the OS keychain through
 * safeStorage; the browser host uses a key file. The core never sees which.
 */
export interface Cipher {
  /** True when the key is held by the operating system, not by a file. */
  readonly isOsProtected: boolean;
  /** How secrets are kept, in English (the API's `description`). */
  readonly description: string;
  /** How secrets are kept, as a code: Settings says it in the person's language. */
  readonly kind: SecretStorageKind;
  /** The key file's path, or the keyring's name. */
  readonly where?: string;
  encrypt(plainText: string): Promise<string>;
  decrypt(cipherText: string): Promise<string>;
}

import { safeStorage } from 'electron';
import { ToolbeltError } from '../shared/errors.js';
import type { Cipher } from '../main/secrets/cipher.js';
import { decideSecretStorage } from './secret-storage-policy.js';

/** safeStorage as the core's cipher. Call after app 'ready'. */
export function createSafeStorageCipher(allowPlainText: boolean): Cipher {
  const backend = process.platform === 'linux' ? safeStorage.getSelectedStorageBackend() : null;
  const decision = decideSecretStorage({
    encryptionAvailable: safeStorage.isEncryptionAvailable(),
    backend,
    allowPlainText,
  });
  if (decision.kind === 'refused') {
    const refuse = async (): Promise<never> => {
      throw new ToolbeltError('unavailable', decision.reason);
    };
    return { isOsProtected: false, kind: decision.code, description: decision.reason, encrypt: refuse, decrypt: refuse };
  }
  return {
    isOsProtected: decision.kind === 'os',
    kind: decision.kind === 'os' ? 'os' : 'fixed_key',
    ...(backend ? { where: backend } : {}),
    description:
      decision.kind === 'os'
        ? `Encrypted by the operating system${backend ? ` (${backend})` : ''}`
        : 'Stored with a fixed key because no keyring was found (opted in)',
    async encrypt(plainText) {
      return safeStorage.encryptString(plainText).toString('base64');
    },
    async decrypt(cipherText) {
      return safeStorage.decryptString(Buffer.from(cipherText, 'base64'));
    },
  };
}

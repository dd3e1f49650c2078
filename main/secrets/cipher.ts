/**
 * Encrypts secret values at rest. Electron uses the OS keychain through
 * safeStorage; the browser host uses a key file. The core never sees which.
 */
export interface Cipher {
  /** True when the key is held by the operating system, not by a file. */
  readonly isOsProtected: boolean;
  /** Shown in Settings so people know how their secrets are kept. */
  readonly description: string;
  encrypt(plainText: string): Promise<string>;
  decrypt(cipherText: string): Promise<string>;
}

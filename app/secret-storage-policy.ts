export type SecretStorageDecision =
  | { kind: 'os' }
  | { kind: 'plain_text_opted_in' }
  | { kind: 'refused'; code: 'no_secure_storage' | 'no_keyring'; reason: string };

/**
 * Electron's safeStorage silently falls back to a hard-coded key on Linux
 * desktops without a keyring ("basic_text"). That protects nothing, so it is
 * used only when the person asked for it.
 */
export function decideSecretStorage(facts: {
  encryptionAvailable: boolean;
  backend: string | null;
  allowPlainText: boolean;
}): SecretStorageDecision {
  if (!facts.encryptionAvailable) {
    return { kind: 'refused', code: 'no_secure_storage', reason: 'The operating system offers no secure storage for secrets.' };
  }
  if (facts.backend === 'basic_text') {
    if (facts.allowPlainText) return { kind: 'plain_text_opted_in' };
    return {
      kind: 'refused',
      code: 'no_keyring',
      reason:
        'No keyring was found (GNOME Keyring or KWallet), so secrets would be stored with a fixed key. ' +
        'Install a keyring, or start Toolbelt with TOOLBELT_ALLOW_PLAINTEXT_SECRETS=1 to accept that.',
    };
  }
  return { kind: 'os' };
}

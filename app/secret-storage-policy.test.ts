import { describe, expect, it } from 'vitest';
import { decideSecretStorage } from './secret-storage-policy.js';

describe('secret storage policy', () => {
  it('uses the OS keychain when there is one', () => {
    expect(decideSecretStorage({ encryptionAvailable: true, backend: 'gnome_libsecret', allowPlainText: false })).toEqual({ kind: 'os' });
    expect(decideSecretStorage({ encryptionAvailable: true, backend: null, allowPlainText: false })).toEqual({ kind: 'os' });
  });

  it('refuses the fixed-key basic_text backend unless the user opted in', () => {
    const refused = decideSecretStorage({ encryptionAvailable: true, backend: 'basic_text', allowPlainText: false });
    expect(refused.kind).toBe('refused');
    expect(refused.kind === 'refused' && refused.reason).toContain('TOOLBELT_ALLOW_PLAINTEXT_SECRETS=1');
    expect(refused.kind === 'refused' && refused.code).toBe('no_keyring');
    expect(decideSecretStorage({ encryptionAvailable: true, backend: 'basic_text', allowPlainText: true })).toEqual({
      kind: 'plain_text_opted_in',
    });
  });

  it('refuses when the OS offers no encryption at all, opt-in or not', () => {
    expect(decideSecretStorage({ encryptionAvailable: false, backend: null, allowPlainText: true })).toMatchObject({ kind: 'refused', code: 'no_secure_storage' });
  });
});

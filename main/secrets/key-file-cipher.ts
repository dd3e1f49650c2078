import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { chmod, link, readFile, unlink, writeFile } from 'node:fs/promises';
import { ToolbeltError } from '../../shared/errors.js';
import type { Cipher } from './cipher.js';

const KEY_BYTES = 32;
const IV_BYTES = 12;
const TAG_BYTES = 16;
const FORMAT_PREFIX = 'v1:';

/**
 * AES-256-GCM with a random key kept in a 0600 file in the data folder: the
 * browser host's stand-in for the OS keychain. It keeps secrets out of
 * settings files and backups of them, but anyone who can read the data
 * folder can read the key, and Settings says so.
 */
export async function createKeyFileCipher(keyPath: string): Promise<Cipher> {
  const key = await loadOrCreateKey(keyPath);
  return {
    isOsProtected: false,
    kind: 'key_file',
    where: keyPath,
    description: `AES-256-GCM with a key file (${keyPath}); not protected by the OS keychain`,
    async encrypt(plainText) {
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      const body = Buffer.concat([cipher.update(plainText, 'utf8'), cipher.final()]);
      return FORMAT_PREFIX + Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64');
    },
    async decrypt(cipherText) {
      if (!cipherText.startsWith(FORMAT_PREFIX)) {
        throw new ToolbeltError('internal', 'A stored secret is in an unknown format.');
      }
      const raw = Buffer.from(cipherText.slice(FORMAT_PREFIX.length), 'base64');
      const iv = raw.subarray(0, IV_BYTES);
      const tag = raw.subarray(IV_BYTES, IV_BYTES + TAG_BYTES);
      const decipher = createDecipheriv('aes-256-gcm', key, iv);
      decipher.setAuthTag(tag);
      try {
        return Buffer.concat([decipher.update(raw.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString('utf8');
      } catch {
        throw new ToolbeltError(
          'internal',
          'A stored secret could not be decrypted: the key file was replaced. Set the secret again.',
        );
      }
    },
  };
}

async function loadOrCreateKey(keyPath: string): Promise<Buffer> {
  // The key is written whole to a temporary file, then linked into place:
  // link() fails if the key exists, and is atomic, so processes starting
  // together agree on one key and none ever reads a half-written one.
  const temporary = `${keyPath}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
  await writeFile(temporary, randomBytes(KEY_BYTES).toString('base64') + '\n', { flag: 'wx', mode: 0o600 });
  try {
    await link(temporary, keyPath);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  } finally {
    await unlink(temporary).catch(() => {});
  }
  const key = Buffer.from((await readFile(keyPath, 'utf8')).trim(), 'base64');
  if (key.length !== KEY_BYTES) {
    throw new ToolbeltError('internal', `The secrets key file ${keyPath} is damaged. Move it away to start over.`);
  }
  await chmod(keyPath, 0o600);
  return key;
}

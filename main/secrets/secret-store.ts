import { chmod } from 'node:fs/promises';
import path from 'node:path';
import { ToolbeltError } from '../../shared/errors.js';
import type { Clock } from '../common/clock.js';
import { withFileLock } from '../common/file-lock.js';
import { PRIVATE_FILE_MODE, readJsonFile, stringifyStable, writeFileAtomically } from '../common/json-files.js';
import type { Cipher } from './cipher.js';

interface SecretsFile {
  schemaVersion: '1';
  secrets: Record<string, { value: string; updatedAt: string }>;
}

export interface SecretInfo {
  name: string;
  updatedAt: string;
}

export interface SecretStore {
  readonly cipher: Cipher;
  list(): Promise<SecretInfo[]>;
  put(name: string, value: string): Promise<SecretInfo>;
  delete(name: string): Promise<void>;
  /** The clear value, or null when there is no such secret. Core-internal only. */
  resolve(name: string): Promise<string | null>;
}

/**
 * Secret values, encrypted by the host's cipher, in <dataDir>/secrets.json
 * (mode 0600). Names are shown everywhere; values only leave this module to
 * go into an outgoing request.
 */
export function createSecretStore(dataDir: string, cipher: Cipher, clock: Clock): SecretStore {
  const file = path.join(dataDir, 'secrets.json');
  const lock = path.join(dataDir, 'locks', 'secrets');
  let cache: SecretsFile | null = null;
  const plain = new Map<string, string>();

  async function load(): Promise<SecretsFile> {
    const read = await readJsonFile(file);
    if (!read.ok) {
      if (read.missing) return { schemaVersion: '1', secrets: {} };
      throw new ToolbeltError('file_invalid', `${file} is invalid (${read.reason}). Move it away to start over.`);
    }
    const value = read.value as Partial<SecretsFile>;
    if (!value || typeof value.secrets !== 'object' || value.secrets === null) {
      throw new ToolbeltError('file_invalid', `${file} is not a secrets file. Move it away to start over.`);
    }
    // Names are looked up as keys: a secret called "constructor" or "toString" must not find Object.prototype.
    return { schemaVersion: '1', secrets: Object.assign(Object.create(null) as SecretsFile['secrets'], value.secrets) };
  }

  async function current(): Promise<SecretsFile> {
    cache ??= await load();
    return cache;
  }

  async function save(next: SecretsFile): Promise<void> {
    await writeFileAtomically(file, stringifyStable({ ...next }, ['schemaVersion', 'secrets']), { within: dataDir });
    // write-file-atomic keeps the mode of a file it replaces; a secrets file must be private whatever it was.
    await chmod(file, PRIVATE_FILE_MODE);
    cache = next;
  }

  return {
    cipher,
    async list() {
      const { secrets } = await current();
      return Object.entries(secrets)
        .map(([name, entry]) => ({ name, updatedAt: entry.updatedAt }))
        .sort((a, b) => a.name.localeCompare(b.name));
    },
    async put(name, value) {
      if (!value.isWellFormed()) {
        throw new ToolbeltError('invalid_params', 'The secret’s value contains a lone UTF-16 surrogate, which is not text; paste the value again.', {
          issues: [{ path: '/value', message: 'contains a lone UTF-16 surrogate' }],
        });
      }
      const sealed = await cipher.encrypt(value);
      const updatedAt = clock.now().toISOString();
      await withFileLock(lock, async () => {
        const fresh = await load();
        const secrets = Object.assign(Object.create(null) as SecretsFile['secrets'], fresh.secrets);
        secrets[name] = { value: sealed, updatedAt };
        await save({ ...fresh, secrets });
      });
      plain.set(name, value);
      return { name, updatedAt };
    },
    async delete(name) {
      await withFileLock(lock, async () => {
        const fresh = await load();
        if (!Object.hasOwn(fresh.secrets, name)) throw new ToolbeltError('not_found', `There is no secret named ${name}.`);
        const secrets = Object.assign(Object.create(null) as SecretsFile['secrets'], fresh.secrets);
        delete secrets[name];
        await save({ ...fresh, secrets });
      });
      plain.delete(name);
    },
    async resolve(name) {
      const known = plain.get(name);
      if (known !== undefined) return known;
      const { secrets } = await current();
      if (!Object.hasOwn(secrets, name)) return null;
      const entry = secrets[name]!;
      const value = await cipher.decrypt(entry.value);
      plain.set(name, value);
      return value;
    },
  };
}

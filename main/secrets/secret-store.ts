import { chmod } from 'node:fs/promises';
import path from 'node:path';
import { ToolbeltError } from '../../shared/errors.js';
import type { Clock } from '../core.js';
import { withFileLock } from '../store/file-lock.js';
import { readJsonFile, stringifyStable, writeFileAtomically } from '../store/json-files.js';
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
    return { schemaVersion: '1', secrets: value.secrets };
  }

  async function current(): Promise<SecretsFile> {
    cache ??= await load();
    return cache;
  }

  async function save(next: SecretsFile): Promise<void> {
    await writeFileAtomically(file, stringifyStable({ ...next }, ['schemaVersion', 'secrets']), 0o600);
    await chmod(file, 0o600);
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
      const sealed = await cipher.encrypt(value);
      const updatedAt = clock.now().toISOString();
      await withFileLock(lock, async () => {
        const fresh = await load();
        await save({ ...fresh, secrets: { ...fresh.secrets, [name]: { value: sealed, updatedAt } } });
      });
      plain.set(name, value);
      return { name, updatedAt };
    },
    async delete(name) {
      await withFileLock(lock, async () => {
        const fresh = await load();
        if (!(name in fresh.secrets)) throw new ToolbeltError('not_found', `There is no secret named ${name}.`);
        const { [name]: _removed, ...rest } = fresh.secrets;
        await save({ ...fresh, secrets: rest });
      });
      plain.delete(name);
    },
    async resolve(name) {
      const known = plain.get(name);
      if (known !== undefined) return known;
      const entry = (await current()).secrets[name];
      if (!entry) return null;
      const value = await cipher.decrypt(entry.value);
      plain.set(name, value);
      return value;
    },
  };
}

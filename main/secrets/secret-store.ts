import { chmod } from 'node:fs/promises';
import path from 'node:path';
import { ToolbeltError } from '../../shared/errors.js';
import { isToolbeltSecretName } from '../../shared/tools/secret-names.js';
import type { Clock } from '../common/clock.js';
import { withFileLock } from '../common/file-lock.js';
import { PRIVATE_FILE_MODE, readJsonFile, stringifyStable, writeFileAtomically } from '../common/json-files.js';
import type { Cipher } from './cipher.js';

type Entries = Record<string, { value: string; updatedAt: string }>;

interface SecretsFile {
  schemaVersion: '1';
  /** The person's secrets: the ones tools, bundles and MCP server configs may name. */
  secrets: Entries;
  /** Toolbelt's own (provider keys, OAuth tokens): no template, import or script can name them. */
  toolbelt?: Entries;
}

type Section = 'secrets' | 'toolbelt';

export interface SecretInfo {
  name: string;
  updatedAt: string;
}

/** Sealed values by name, in one section of the secrets file. */
export interface SecretSection {
  put(name: string, value: string): Promise<SecretInfo>;
  delete(name: string): Promise<void>;
  /** The clear value, or null when there is no such secret. Core-internal only. */
  resolve(name: string): Promise<string | null>;
}

/** The person's secrets, which tools reach by name. */
export interface SecretStore extends SecretSection {
  readonly cipher: Cipher;
  list(): Promise<SecretInfo[]>;
}

/** Both sections: the person's, and Toolbelt's own, which only the core's own services are handed. */
export interface SecretStores {
  secrets: SecretStore;
  toolbelt: SecretSection;
}

const emptyEntries = (): Entries => Object.create(null) as Entries;

/**
 * Secret values, encrypted by the host's cipher, in <dataDir>/secrets.json
 * (mode 0600). Names are shown everywhere; values only leave this module to
 * go into an outgoing request.
 *
 * The file has two sections. Toolbelt's own secrets live apart from the
 * person's so that nothing a tool names (`${secret.X}`, an import, a ZIP, an
 * MCP server's env) can reach a provider key or an OAuth token: the store
 * handed to tools has no way into that section, and refuses Toolbelt's names.
 * Files written before the split kept both in one section; reading moves
 * Toolbelt's names across.
 */
export function createSecretStores(dataDir: string, cipher: Cipher, clock: Clock): SecretStores {
  const file = path.join(dataDir, 'secrets.json');
  const lock = path.join(dataDir, 'locks', 'secrets');
  let cache: Required<SecretsFile> | null = null;
  const plain: Record<Section, Map<string, string>> = { secrets: new Map(), toolbelt: new Map() };

  async function load(): Promise<Required<SecretsFile>> {
    const read = await readJsonFile(file);
    if (!read.ok) {
      if (read.missing) return { schemaVersion: '1', secrets: emptyEntries(), toolbelt: emptyEntries() };
      throw new ToolbeltError('file_invalid', `${file} is invalid (${read.reason}). Move it away to start over.`);
    }
    const value = read.value as Partial<SecretsFile>;
    if (!value || typeof value.secrets !== 'object' || value.secrets === null) {
      throw new ToolbeltError('file_invalid', `${file} is not a secrets file. Move it away to start over.`);
    }
    // Names are looked up as keys: a secret called "constructor" or "toString" must not find Object.prototype.
    const secrets = emptyEntries();
    const toolbelt = Object.assign(emptyEntries(), typeof value.toolbelt === 'object' && value.toolbelt !== null ? value.toolbelt : {});
    for (const [name, entry] of Object.entries(value.secrets)) {
      if (!isToolbeltSecretName(name)) secrets[name] = entry;
      else if (!Object.hasOwn(toolbelt, name)) toolbelt[name] = entry;
    }
    return { schemaVersion: '1', secrets, toolbelt };
  }

  async function current(): Promise<Required<SecretsFile>> {
    cache ??= await load();
    return cache;
  }

  async function save(next: Required<SecretsFile>): Promise<void> {
    await writeFileAtomically(file, stringifyStable({ ...next }, ['schemaVersion', 'secrets', 'toolbelt']), { within: dataDir });
    // write-file-atomic keeps the mode of a file it replaces; a secrets file must be private whatever it was.
    await chmod(file, PRIVATE_FILE_MODE);
    cache = next;
  }

  async function change(section: Section, edit: (entries: Entries) => void): Promise<void> {
    await withFileLock(lock, async () => {
      const fresh = await load();
      const entries = Object.assign(emptyEntries(), fresh[section]);
      edit(entries);
      await save({ ...fresh, [section]: entries });
    });
  }

  function sectionOf(section: Section): SecretSection {
    const known = plain[section];
    return {
      async put(name, value) {
        if (!value.isWellFormed()) {
          throw new ToolbeltError('invalid_params', 'The secret’s value contains a lone UTF-16 surrogate, which is not text; paste the value again.', {
            issues: [{ path: '/value', message: 'contains a lone UTF-16 surrogate' }],
          });
        }
        const sealed = await cipher.encrypt(value);
        const updatedAt = clock.now().toISOString();
        await change(section, (entries) => {
          entries[name] = { value: sealed, updatedAt };
        });
        known.set(name, value);
        return { name, updatedAt };
      },
      async delete(name) {
        await change(section, (entries) => {
          if (!Object.hasOwn(entries, name)) throw new ToolbeltError('not_found', `There is no secret named ${name}.`);
          delete entries[name];
        });
        known.delete(name);
      },
      async resolve(name) {
        const remembered = known.get(name);
        if (remembered !== undefined) return remembered;
        const entries = (await current())[section];
        if (!Object.hasOwn(entries, name)) return null;
        const value = await cipher.decrypt(entries[name]!.value);
        known.set(name, value);
        return value;
      },
    };
  }

  const person = sectionOf('secrets');
  const reserved = (name: string) =>
    new ToolbeltError('secret_reserved', `${name} is a name Toolbelt keeps for its own secrets (provider keys, sign-in tokens); tools cannot use it. Give the tool a secret of its own in Settings → Secrets.`, {
      secret: name,
    });
  return {
    secrets: {
      cipher,
      async list() {
        const { secrets } = await current();
        return Object.entries(secrets)
          .map(([name, entry]) => ({ name, updatedAt: entry.updatedAt }))
          .sort((a, b) => a.name.localeCompare(b.name));
      },
      async put(name, value) {
        if (isToolbeltSecretName(name)) throw reserved(name);
        return person.put(name, value);
      },
      async delete(name) {
        if (isToolbeltSecretName(name)) throw reserved(name);
        return person.delete(name);
      },
      async resolve(name) {
        if (isToolbeltSecretName(name)) throw reserved(name);
        return person.resolve(name);
      },
    },
    toolbelt: sectionOf('toolbelt'),
  };
}

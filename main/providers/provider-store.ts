import path from 'node:path';
import { ToolbeltError } from '../../shared/errors.js';
import { ProviderConfigSchema, type ProviderConfig, type ProviderInput, type ProviderView } from '../../shared/schemas/provider.js';
import { compile, createAjv } from '../common/validation.js';
import type { SecretSection } from '../secrets/secret-store.js';
import { withFileLock } from '../common/file-lock.js';
import { readJsonFile, stringifyStable, writeFileAtomically } from '../common/json-files.js';

interface ProvidersFile {
  schemaVersion: '1';
  providers: ProviderConfig[];
}

/** A provider with its key, for the adapters only; never leaves the core. */
export interface ProviderSettings extends ProviderView {
  apiKey?: string;
}

/** The variables that add providers at start, by the id they get. */
const ENVIRONMENT_PROVIDERS = [
  { id: 'openai', kind: 'openai', displayName: 'OpenAI (environment)', key: 'OPENAI_API_KEY', baseURL: 'OPENAI_BASE_URL', model: 'OPENAI_MODEL' },
  { id: 'anthropic', kind: 'anthropic', displayName: 'Anthropic (environment)', key: 'ANTHROPIC_API_KEY', baseURL: 'ANTHROPIC_BASE_URL', model: 'ANTHROPIC_MODEL' },
  { id: 'gemini', kind: 'gemini', displayName: 'Gemini (environment)', key: 'GEMINI_API_KEY', baseURL: 'GEMINI_BASE_URL', model: 'GEMINI_MODEL' },
] as const;

export function apiKeySecretName(providerId: string): string {
  return `PROVIDER_${providerId.toUpperCase().replaceAll('-', '_')}_API_KEY`;
}

export interface ProviderStore {
  list(): Promise<ProviderView[]>;
  put(id: string, input: ProviderInput): Promise<ProviderView>;
  delete(id: string): Promise<void>;
  /** The provider with its key; not_found with a next step when there is none. */
  require(id: string): Promise<ProviderSettings>;
}

/**
 * Providers in <dataDir>/providers.json (no keys: those are secrets named
 * PROVIDER_<ID>_API_KEY), plus the ones the environment adds at start,
 * which a saved provider of the same id replaces.
 */
export function createProviderStore(dataDir: string, secrets: SecretSection, environment: Readonly<Record<string, string | undefined>>): ProviderStore {
  const file = path.join(dataDir, 'providers.json');
  const lock = path.join(dataDir, 'locks', 'providers');
  const validConfig = compile(createAjv({ strict: false }), ProviderConfigSchema);

  const fromEnvironment: ProviderSettings[] = ENVIRONMENT_PROVIDERS.filter((entry) => environment[entry.key] || environment[entry.baseURL]).map(
    (entry) => ({
      id: entry.id,
      kind: entry.kind,
      displayName: entry.displayName,
      ...(environment[entry.baseURL] ? { baseURL: environment[entry.baseURL] } : {}),
      ...(environment[entry.key] ? { apiKey: environment[entry.key] } : {}),
      ...(environment[entry.model]?.trim() ? { defaultModel: environment[entry.model]!.trim() } : {}),
      hasApiKey: Boolean(environment[entry.key]),
      source: 'environment' as const,
    }),
  );

  async function load(): Promise<ProvidersFile> {
    const read = await readJsonFile(file);
    if (!read.ok) {
      if (read.missing) return { schemaVersion: '1', providers: [] };
      throw new ToolbeltError('file_invalid', `providers.json in ${dataDir} cannot be read (${read.reason}). Fix or remove it.`);
    }
    const providers = (read.value as Partial<ProvidersFile>).providers;
    if (!Array.isArray(providers) || !providers.every((entry) => validConfig(entry))) {
      throw new ToolbeltError('file_invalid', `providers.json in ${dataDir} is not a valid provider list. Fix or remove it.`);
    }
    return { schemaVersion: '1', providers };
  }

  async function view(config: ProviderConfig): Promise<ProviderView> {
    return { ...config, hasApiKey: (await secrets.resolve(apiKeySecretName(config.id))) !== null, source: 'saved' };
  }

  async function save(change: (providers: ProviderConfig[]) => ProviderConfig[]): Promise<void> {
    await withFileLock(lock, async () => {
      const current = await load();
      const next = change(current.providers).sort((a, b) => a.id.localeCompare(b.id));
      await writeFileAtomically(file, stringifyStable({ schemaVersion: '1', providers: next }, ['schemaVersion', 'providers']), { within: dataDir });
    });
  }

  return {
    async list() {
      const saved = await Promise.all((await load()).providers.map(view));
      const shadowed = new Set(saved.map((provider) => provider.id));
      const environmentViews = fromEnvironment.filter((provider) => !shadowed.has(provider.id)).map(({ apiKey: _key, ...rest }) => rest);
      return [...saved, ...environmentViews].sort((a, b) => a.displayName.localeCompare(b.displayName));
    },

    async put(id, input) {
      const { apiKey, ...rest } = input;
      const config: ProviderConfig = { id, ...rest };
      if (config.kind !== 'scripted') {
        delete config.script;
        delete config.chunkDelayMs;
      }
      if (config.kind !== 'azure') delete config.apiVersion;
      else if (!config.baseURL) throw new ToolbeltError('invalid_params', 'Azure OpenAI needs its endpoint as the base URL, such as https://my-resource.openai.azure.com.');
      if (apiKey !== undefined) await secrets.put(apiKeySecretName(id), apiKey);
      await save((providers) => [...providers.filter((provider) => provider.id !== id), config]);
      return view(config);
    },

    async delete(id) {
      let found = false;
      await save((providers) => {
        found = providers.some((provider) => provider.id === id);
        return providers.filter((provider) => provider.id !== id);
      });
      if (!found) {
        const inEnvironment = fromEnvironment.some((provider) => provider.id === id);
        throw new ToolbeltError(
          inEnvironment ? 'forbidden' : 'not_found',
          inEnvironment ? `The provider "${id}" comes from environment variables; unset them to remove it.` : `There is no provider "${id}".`,
        );
      }
      await secrets.delete(apiKeySecretName(id)).catch(() => undefined);
    },

    async require(id) {
      const saved = (await load()).providers.find((provider) => provider.id === id);
      if (saved) {
        const apiKey = (await secrets.resolve(apiKeySecretName(id))) ?? undefined;
        return { ...saved, ...(apiKey ? { apiKey } : {}), hasApiKey: apiKey !== undefined, source: 'saved' };
      }
      const environmentProvider = fromEnvironment.find((provider) => provider.id === id);
      if (environmentProvider) return environmentProvider;
      throw new ToolbeltError('not_found', `There is no provider "${id}". Add one in Settings → Providers.`);
    },
  };
}

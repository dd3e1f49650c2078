import { ToolbeltError } from '../../shared/errors.js';
import { AZURE_DEFAULT_API_VERSION } from '../../shared/schemas/provider.js';
import { createAnthropicProvider } from './anthropic.js';
import { createGeminiProvider } from './gemini.js';
import type { ModelProvider } from './model.js';
import { createOpenAiProvider } from './openai.js';
import type { ProviderSettings } from './provider-store.js';
import { createScriptedProvider } from './scripted.js';

export interface ProviderFactoryOptions {
  fetch: typeof globalThis.fetch;
  /** Retries the SDKs make themselves on connection errors, 429 and 5xx (default 2). */
  maxRetries?: number;
  timeoutMs?: number;
}

/**
 * Adapters for configured providers. A client is kept while its settings
 * (key included) stay the same, so its connection pool is reused.
 */
export function createProviderFactory(options: ProviderFactoryOptions): (settings: ProviderSettings) => ModelProvider {
  const cache = new Map<string, { fingerprint: string; provider: ModelProvider }>();
  return (settings) => {
    const fingerprint = JSON.stringify(settings);
    const kept = cache.get(settings.id);
    if (kept?.fingerprint === fingerprint) return kept.provider;
    const refused = new Map<string, ToolbeltError>();
    const picturesRefused = new Map<string, ToolbeltError>();
    const connection = {
      displayName: settings.displayName,
      baseURL: settings.baseURL,
      apiKey: settings.apiKey,
      fetch: options.fetch,
      maxRetries: options.maxRetries ?? 2,
      timeoutMs: options.timeoutMs ?? 10 * 60_000,
      toolsRefused: (model: string, error: ToolbeltError) => refused.set(model, error),
      picturesRefused: (model: string, error: ToolbeltError) => picturesRefused.set(model, error),
    };
    const provider = remembering(
      { tools: refused, pictures: picturesRefused },
      settings.kind === 'openai'
        ? createOpenAiProvider(connection)
        : settings.kind === 'azure'
          ? createOpenAiProvider({ ...connection, azureApiVersion: settings.apiVersion ?? AZURE_DEFAULT_API_VERSION })
        : settings.kind === 'anthropic'
          ? createAnthropicProvider(connection)
          : settings.kind === 'gemini'
            ? createGeminiProvider(connection)
            : createScriptedProvider({ script: settings.script, chunkDelayMs: settings.chunkDelayMs }),
    );
    cache.set(settings.id, { fingerprint, provider });
    return provider;
  };
}

/**
 * What the server's answers taught, kept while the provider's settings stay
 * the same (a changed server or key asks again): a model that refused tools
 * is not sent them again (the next turn with tools fails before the
 * request, with the same sentence), a model that refused pictures gets them
 * left out (said in the message), and the input sizes its model list gave.
 */
function remembering(refusals: { tools: ReadonlyMap<string, ToolbeltError>; pictures: ReadonlyMap<string, ToolbeltError> }, provider: ModelProvider): ModelProvider {
  const refused = refusals.tools;
  const listedContext = new Map<string, number>();
  return {
    ...provider,
    async listModels(signal) {
      const models = await provider.listModels(signal);
      for (const model of models ?? []) if (model.contextTokens) listedContext.set(model.id, model.contextTokens);
      return models;
    },
    learned(model) {
      const refusal = refused.get(model)?.message;
      const pictures = refusals.pictures.get(model)?.message;
      const listed = listedContext.get(model);
      return { ...provider.learned?.(model), ...(refusal ? { toolsRefusal: refusal } : {}), ...(pictures ? { picturesRefusal: pictures } : {}), ...(listed ? { listedContextTokens: listed } : {}) };
    },
    // The adapter's own stream, not wrapped: a layer here would cost on every streamed token. A refusal is
    // remembered where it is recognised (the connection's toolsRefused).
    stream(request) {
      const known = request.tools.length > 0 ? refused.get(request.model) : undefined;
      return known ? refusedAgain(known) : provider.stream(request);
    },
  };
}

// eslint-disable-next-line require-yield -- fails before its first event, as the request it stands for would
async function* refusedAgain(earlier: ToolbeltError): AsyncIterable<never> {
  throw new ToolbeltError('tools_unsupported', `${earlier.message} (Its earlier answer; nothing was sent this time.)`, earlier.details);
}

import { ToolbeltError } from '../../shared/errors.js';
import type { Handlers } from '../api/dispatcher.js';
import type { CapabilityReader } from './capabilities.js';
import type { ModelProvider } from './model.js';
import type { ProviderSettings, ProviderStore } from './provider-store.js';

export function providerHandlers(
  providers: ProviderStore,
  connect: (settings: ProviderSettings) => ModelProvider,
  now: () => number,
  capabilities: CapabilityReader,
): Pick<Handlers, 'providers.list' | 'providers.put' | 'providers.delete' | 'providers.test' | 'models.list' | 'models.capabilities'> {
  const signalOf = (context: { signal?: AbortSignal }) => context.signal ?? new AbortController().signal;
  return {
    'providers.list': async () => ({ providers: await providers.list() }),
    'providers.put': ({ id, ...input }) => providers.put(id, input),
    'providers.delete': async ({ id }) => {
      await providers.delete(id);
      return null;
    },
    'providers.test': async ({ id }, context) => {
      const settings = await providers.require(id);
      const provider = connect(settings);
      const started = now();
      const models = await provider.listModels(signalOf(context));
      if (models) {
        return {
          ok: true as const,
          message: `Connected to ${settings.displayName}: ${models.length} model${models.length === 1 ? '' : 's'} available.`,
          latencyMs: now() - started,
          models: models.map((model) => model.id),
        };
      }
      if (!settings.defaultModel) {
        throw new ToolbeltError('provider_error', `${settings.displayName} cannot list its models. Set a default model so the test can send it a short message.`);
      }
      // A server without a model list: one tiny request proves the address and the key.
      for await (const event of provider.stream({
        model: settings.defaultModel,
        messages: [{ id: '00000000-0000-7000-8000-000000000000', role: 'user', content: 'Reply with OK.', createdAt: new Date(0).toISOString() }],
        tools: [],
        parallelToolCalls: true,
        signal: signalOf(context),
      })) {
        if (event.type === 'finish') break;
      }
      return { ok: true as const, message: `${settings.displayName} answered with ${settings.defaultModel}.`, latencyMs: now() - started };
    },
    'models.capabilities': async ({ id, model }, context) => capabilities(await providers.require(id), model, signalOf(context)),
    'models.list': async ({ id }, context) => {
      const settings = await providers.require(id);
      const models = await connect(settings).listModels(signalOf(context));
      if (models) return { models, source: 'server' as const };
      return { models: settings.defaultModel ? [{ id: settings.defaultModel }] : [], source: 'configured' as const };
    },
  };
}

import { Type } from '@sinclair/typebox';
import { defineOperation } from '../operation.js';
import { ProviderIdSchema } from '../schemas/chat.js';
import { ModelCapabilitiesSchema, ProviderInputSchema, ProviderViewSchema } from '../schemas/provider.js';

const providerRoute = '/api/providers/:id';
const byId = Type.Object({ id: ProviderIdSchema }, { additionalProperties: false });

export const providersList = defineOperation({
  name: 'providers.list',
  summary: 'Configured model providers; API keys never, only whether one is stored.',
  params: Type.Object({}, { additionalProperties: false }),
  result: Type.Object({ providers: Type.Array(ProviderViewSchema) }, { additionalProperties: false }),
  http: { method: 'GET', path: '/api/providers' },
});

export const providersPut = defineOperation({
  name: 'providers.put',
  summary: 'Add or replace a provider. Without apiKey a stored key is kept.',
  params: Type.Object({ id: ProviderIdSchema, ...ProviderInputSchema.properties }, { additionalProperties: false }),
  result: ProviderViewSchema,
  http: { method: 'PUT', path: providerRoute },
});

export const providersDelete = defineOperation({
  name: 'providers.delete',
  summary: 'Remove a provider and its stored API key.',
  params: byId,
  result: Type.Null(),
  http: { method: 'DELETE', path: providerRoute, successStatus: 204 },
});

export const providersTest = defineOperation({
  name: 'providers.test',
  summary: 'Ask the provider something small to check the address and the key.',
  params: byId,
  result: Type.Object(
    { ok: Type.Literal(true), message: Type.String(), latencyMs: Type.Number({ minimum: 0 }), models: Type.Optional(Type.Array(Type.String())) },
    { additionalProperties: false },
  ),
  http: { method: 'POST', path: `${providerRoute}/test` },
});

export const modelsList = defineOperation({
  name: 'models.list',
  summary: "The provider's models, asked of its server where it can answer.",
  params: byId,
  result: Type.Object(
    {
      models: Type.Array(
        Type.Object({ id: Type.String(), displayName: Type.Optional(Type.String()), contextTokens: Type.Optional(Type.Integer({ minimum: 1 })) }, { additionalProperties: false }),
      ),
      /** `server`: the server listed them; `configured`: only the default model is known. */
      source: Type.Union([Type.Literal('server'), Type.Literal('configured')]),
    },
    { additionalProperties: false },
  ),
  http: { method: 'GET', path: `${providerRoute}/models` },
});

export const modelsCapabilities = defineOperation({
  name: 'models.capabilities',
  summary: 'What a model of the provider can do (tools, parallel calls, streaming with tools, images, structured answers, context size), learned answers included.',
  params: Type.Object({ id: ProviderIdSchema, model: Type.String({ minLength: 1, maxLength: 200 }) }, { additionalProperties: false }),
  result: ModelCapabilitiesSchema,
  http: { method: 'GET', path: `${providerRoute}/capabilities` },
});

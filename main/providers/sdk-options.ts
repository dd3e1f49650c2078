import type { ProviderConnection } from './connection.js';
import type { ModelRequest } from './model.js';

/** What the OpenAI and Anthropic SDK clients take from a connection (Gemini's SDK takes its own shape). */
export function sdkClientOptions(connection: ProviderConnection, baseURL: string) {
  return { baseURL, fetch: connection.fetch, maxRetries: connection.maxRetries, timeout: connection.timeoutMs };
}

/** What both SDKs take per request: its signal, and the tag that records it in the run's raw exchange. */
export function sdkRequestOptions(request: ModelRequest): { signal: AbortSignal; headers?: Record<string, string> } {
  return { signal: request.signal, ...(request.exchangeTag ? { headers: { ...request.exchangeTag } } : {}) };
}

/** What an adapter needs to talk to one configured provider. */
export interface ProviderConnection {
  displayName: string;
  baseURL?: string;
  apiKey?: string;
  fetch: typeof globalThis.fetch;
  /** The SDKs retry connection errors, 429 and 5xx themselves. */
  maxRetries: number;
  timeoutMs: number;
  /** Azure OpenAI: its api-version; the model of a request is the deployment's name. */
  azureApiVersion?: string;
}

import type { ToolbeltError } from '../../shared/errors.js';

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
  /** Told when the server refuses a request for its tools, so the model is not sent them again. */
  toolsRefused?: (model: string, error: ToolbeltError) => void;
  /** Told when the server refuses a request for its pictures, so the model is not sent them again. */
  picturesRefused?: (model: string, error: ToolbeltError) => void;
}

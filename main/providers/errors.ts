import { ToolbeltError } from '../../shared/errors.js';
import { Redactor } from '../common/redact.js';
import type { ProviderConnection } from './connection.js';
import type { ModelRequest } from './model.js';
import { socketReason } from '../common/socket-reason.js';

export interface ProviderErrorContext {
  providerName: string;
  model?: string;
  baseURL: string;
  hadTools: boolean;
  /** The request carried pictures of the person's (as images). */
  hadPictures?: boolean;
  apiKey?: string;
  signal?: AbortSignal;
}

interface SdkErrorShape {
  name?: string;
  status?: number;
  message?: string;
  error?: unknown;
  cause?: unknown;
}

/** The server's own words: the `error.message` of its body, else the SDK's message. */
function serverMessage(error: SdkErrorShape): string {
  const body = error.error as { message?: unknown; error?: { message?: unknown } } | undefined;
  const fromBody = typeof body?.message === 'string' ? body.message : typeof body?.error?.message === 'string' ? body.error.message : null;
  return (fromBody ?? error.message ?? 'no details').slice(0, 500);
}

/**
 * Turns what the openai and @anthropic-ai/sdk clients throw into errors a
 * person can act on. Both SDKs share the shape: APIError with `status`,
 * APIConnectionError, APIUserAbortError.
 */
export function providerError(raw: unknown, context: ProviderErrorContext): ToolbeltError {
  if (raw instanceof ToolbeltError) return raw;
  const redactor = new Redactor(context.apiKey ? [context.apiKey] : []);
  const error = (raw ?? {}) as SdkErrorShape;
  // The SDKs' error classes, by class name or (errors rebuilt as plain objects, as for Gemini's) by `name`.
  const constructorName = (raw as { constructor?: { name?: string } } | null)?.constructor?.name;
  const kind = constructorName && constructorName !== 'Object' ? constructorName : (error.name ?? '');
  const name = context.providerName;
  if (context.signal?.aborted || kind === 'APIUserAbortError' || error.name === 'AbortError') {
    return new ToolbeltError('cancelled', 'The request to the model was cancelled.');
  }
  const said = redactor.text(serverMessage(error));
  const status = typeof error.status === 'number' ? error.status : undefined;
  if (kind === 'APIConnectionError' || kind === 'APIConnectionTimeoutError') {
    const reason = socketReason(error.cause);
    const cause = reason ? ` (${redactor.text(reason)})` : '';
    const timedOut = kind === 'APIConnectionTimeoutError';
    return new ToolbeltError(
      'provider_unreachable',
      timedOut
        ? `${name} at ${context.baseURL} did not answer in time. Check the server, or try again.`
        : `Could not reach ${name} at ${context.baseURL}${cause}. Check that the server is running and the base URL in Settings → Providers.`,
    );
  }
  if (status === undefined) {
    // An error event inside the stream (an overloaded server, say): the answer stops here.
    return new ToolbeltError('provider_error', `${name} stopped the answer with an error: ${said}`);
  }
  if (status === 401 || status === 403) {
    return new ToolbeltError('provider_auth', `${name} refused the API key (HTTP ${status}: ${said}). Set a valid key in Settings → Providers.`, { status });
  }
  if (status === 429) {
    return new ToolbeltError('provider_rate_limited', `${name} is rate-limiting requests (HTTP 429: ${said}). Wait a moment and try again.`, { status });
  }
  if (status === 404 && context.model) {
    return new ToolbeltError('not_found', `${name} does not know the model "${context.model}" (HTTP 404: ${said}). Pick another model for this chat.`, { status });
  }
  if (status >= 400 && status < 500 && context.hadPictures && /\bimages?\b|vision|multi-?modal|picture/i.test(said)) {
    return new ToolbeltError(
      'pictures_unsupported',
      `${name} refused the picture for ${context.model ?? 'this model'} (HTTP ${status}: ${said}). Send again and the picture is left out for this model, or pick a model that sees pictures.`,
      { status },
    );
  }
  if (status >= 400 && status < 500 && context.hadTools && /\btools?\b|function/i.test(said)) {
    return new ToolbeltError(
      'tools_unsupported',
      `${name} refused the tools for ${context.model ?? 'this model'} (HTTP ${status}: ${said}). Pick a model that supports tool calling, or turn tools off for this chat.`,
      { status },
    );
  }
  return new ToolbeltError('provider_error', `${name} answered HTTP ${status}: ${said}`, { status });
}

/** A stream that stopped before the provider said it was done. */
export function incompleteStream(providerName: string): ToolbeltError {
  return new ToolbeltError(
    'provider_error',
    `${providerName} ended the answer early (the stream closed without a finish marker). The reply may be cut off; try again.`,
  );
}

/** providerError for one connection: the request, when there is one, names the model and the tools. */
export function failureFor(connection: ProviderConnection, baseURL: string): (error: unknown, request?: ModelRequest) => ToolbeltError {
  return (error, request) => {
    const failure = providerError(error, {
      providerName: connection.displayName,
      baseURL,
      model: request?.model,
      hadTools: (request?.tools.length ?? 0) > 0,
      hadPictures: request?.messages.some((message) => message.role === 'user' && message.files?.some((file) => file.kind === 'picture' && 'data' in file && file.data !== undefined)) ?? false,
      apiKey: connection.apiKey,
      signal: request?.signal,
    });
    if (failure.code === 'tools_unsupported' && request) connection.toolsRefused?.(request.model, failure);
    if (failure.code === 'pictures_unsupported' && request) connection.picturesRefused?.(request.model, failure);
    return failure;
  };
}

import type { HttpImpl } from '../../../shared/schemas/http-impl.js';
import type { RequestPreview } from '../../../shared/schemas/chat.js';
import type { TraceEntry } from '../../../shared/schemas/invocation.js';
import { templatesOf } from '../../../shared/tools/http-templates.js';
import { deadline, type Deadline } from '../abort.js';
import { ToolbeltError } from '../../../shared/errors.js';
import { jsonValueProblem } from '../../common/json-limits.js';
import { InvokeFailure } from '../invoke-error.js';
import { MASK, NO_SECRETS, Redactor } from '../../common/redact.js';
import { allowlistEntryFor, isHostAllowed } from './allowed-hosts.js';
import { buildRequest, type BuiltRequest } from './build-request.js';
import type { OAuthTokens } from './oauth-tokens.js';
import type { RateLimiter } from './rate-limit.js';
import { DEFAULT_IDLE_TIMEOUT_MS, readEventStream } from './event-stream.js';
import { DEFAULT_MAX_RESPONSE_BYTES } from './read-body.js';
import type { HttpSend, IncomingResponse } from './transport.js';
import { renderText, secretNamesIn, type RenderScope } from './render.js';
import { parseRetryAfter, retryPolicy } from './retry.js';

export const DEFAULT_TIMEOUT_MS = 15_000;
const MAX_REDIRECTS = 5;
const PREVIEW_CHARS = 2_048;
const SNIPPET_CHARS = 300;
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

export interface HttpCall {
  toolKey: string;
  toolName: string;
  impl: HttpImpl;
  args: Record<string, unknown>;
  argumentNames: ReadonlySet<string>;
  allowedHosts: readonly string[];
  resolveSecret: (name: string) => Promise<string | null>;
  timeoutMs?: number;
  signal: AbortSignal;
  /** Record a trace entry per attempt (the tester and `trace: true` ask for it). */
  trace: boolean;
  /** Whose connection a person signs in to (OAuth 2 authorization code): the bundle's or the tool's name. */
  signInWhere?: string;
  /**
   * A request made already, not from templates (a script's `fetch`): sent through the same checks (allowed hosts on
   * every hop, redirects, timeout, size limit, rate limit) with `impl` giving only the limits and what counts as success.
   */
  prebuilt?: BuiltRequest;
  /** An event stream's events as they arrive (responseEncoding "sse"): the card's and the tester's progress. */
  onEvent?: (data: unknown, count: number) => void;
}

export interface HttpResponseData {
  status: number;
  headers: Record<string, string>;
  text: string;
  decoded: unknown;
}

export interface HttpCallOutcome {
  attempts: number;
  trace: TraceEntry[];
  redactor: Redactor;
  response?: HttpResponseData;
  failure?: InvokeFailure;
}

export interface HttpExecutorDeps {
  send: HttpSend;
  now: () => number;
  /** Tokens of tools that sign in with OAuth 2. */
  oauthTokens?: OAuthTokens;
  rateLimiter: RateLimiter;
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
  random?: () => number;
}

/**
 * The declarative HTTP tool, end to end: templates → allowlist → rate limit
 * → attempts (each with its timeout, following redirects by hand so every
 * hop is checked) → size-limited read → decode. Returns what happened,
 * including a failure, with secrets masked in everything it reports.
 */
export async function executeHttp(call: HttpCall, deps: HttpExecutorDeps): Promise<HttpCallOutcome> {
  if (call.impl.auth?.kind !== 'oauth2') return executeOnce(call, deps, false);
  // A kept token the API refuses (revoked, rotated) is bought again once; a fresh one it refuses is the answer.
  const first = await executeOnce(call, deps, false);
  if (first.failure?.extra.status !== 401) return first;
  const second = await executeOnce(call, deps, true);
  return { ...second, attempts: first.attempts + second.attempts, trace: [...first.trace, ...second.trace.map((entry) => ({ ...entry, attempt: entry.attempt + first.attempts }))] };
}

async function executeOnce(call: HttpCall, deps: HttpExecutorDeps, freshToken: boolean): Promise<HttpCallOutcome> {
  const trace: TraceEntry[] = [];
  let redactor = NO_SECRETS;
  let attempts = 0;
  try {
    const secrets = await resolveSecrets(call);
    if (secrets.size > 0) redactor = new Redactor(secrets.values());
    const scope: RenderScope = { args: call.args, argumentNames: call.argumentNames, secrets, usedSecrets: new Set(), now: deps.now() };
    const auth = call.impl.auth;
    if (auth?.kind === 'oauth2') {
      if (!deps.oauthTokens) throw new InvokeFailure('invalid_request', `${call.toolName} signs in with OAuth 2, which this host cannot do.`);
      scope.oauthToken = await deps.oauthTokens.token({
        auth,
        clientId: renderText(auth.clientId, scope, 'auth.clientId'),
        clientSecret: auth.clientSecret === undefined ? undefined : renderText(auth.clientSecret, scope, 'auth.clientSecret'),
        allowedHosts: call.allowedHosts,
        signal: call.signal,
        fresh: freshToken,
        signInWhere: call.signInWhere ?? call.toolName,
        ...(call.trace ? { trace } : {}),
      });
    }
    const request = call.prebuilt ?? buildRequest(call.impl, scope);
    if (request.derivedSecrets.length > 0) redactor = redactor.withDerived(request.derivedSecrets);
    // Only failures need this sentence; it is built when one happens.
    const what = () => `${call.toolName}: ${request.method} ${redactor.text(request.url.toString())}`;

    if (!isHostAllowed(request.url, call.allowedHosts)) {
      throw new InvokeFailure(
        'host_not_allowed',
        `${what()} was not sent: ${allowlistEntryFor(request.url)} is not an allowed host. Allow it in Settings → Allowed hosts.`,
        { host: allowlistEntryFor(request.url) },
      );
    }
    if (call.impl.rateLimit) {
      const verdict = deps.rateLimiter.take(call.toolKey, call.impl.rateLimit);
      if (!verdict.ok) {
        throw new InvokeFailure('rate_limited', `${what()} was not sent: the tool's rate limit is reached; try again in ${Math.ceil(verdict.retryInMs / 1000)} s.`);
      }
    }

    const policy = retryPolicy(call.impl, deps.random);
    for (let attempt = 1; ; attempt++) {
      attempts = attempt;
      const entry = call.trace ? startTrace(attempt, request, redactor, deps.now()) : null;
      if (entry) trace.push(entry);
      const started = deps.now();
      let outcome: { response?: HttpResponseData; failure?: InvokeFailure; retryAfterMs: number | null; timedOut?: boolean };
      const limit = deadline(call.signal, call.timeoutMs ?? call.impl.timeoutMs ?? DEFAULT_TIMEOUT_MS);
      try {
        outcome = { ...(await attemptOnce(call, request, deps, limit, entry, redactor, what)), retryAfterMs: null };
        outcome.retryAfterMs = parseRetryAfter(outcome.response?.headers['retry-after'] ?? null, deps.now());
      } catch (error) {
        if (!(error instanceof InvokeFailure)) throw error;
        outcome = { failure: error, retryAfterMs: null, timedOut: error.code === 'timeout' };
      } finally {
        limit.dispose();
      }
      if (entry) {
        entry.durationMs = Math.max(0, deps.now() - started);
        if (outcome.failure) entry.error = { code: outcome.failure.code, message: outcome.failure.message };
      }

      const response = outcome.response;
      const succeeded = response && isSuccess(response.status, call.impl.successCodes);
      if (succeeded) return { attempts, trace, redactor, response };

      const failure =
        outcome.failure ??
        new InvokeFailure('http_status', `${what()} answered HTTP ${response!.status}.`, {
          status: response!.status,
          snippet: redactor.text(response!.text.slice(0, SNIPPET_CHARS)),
        });
      const final = () => ({ attempts, trace, redactor, failure, ...(response ? { response } : {}) });
      if (failure.code === 'cancelled' || failure.code === 'host_not_allowed' || failure.code === 'response_too_large') return final();
      const reason = policy.reasonToRetry({
        status: response?.status,
        networkError: failure.code === 'network',
        timedOut: outcome.timedOut,
      });
      if (!reason || attempt >= policy.maxAttempts) return final();
      if (outcome.retryAfterMs !== null && outcome.retryAfterMs > policy.maxDelayMs) {
        failure.message += ` The server asked to retry after ${Math.ceil(outcome.retryAfterMs / 1000)} s, longer than the tool waits (retry.maxDelayMs).`;
        return final();
      }
      const delay = policy.delayMs(attempt + 1, outcome.retryAfterMs);
      if (entry) {
        entry.retryReason = reason;
        entry.delayBeforeNextMs = delay;
      }
      await (deps.sleep ?? sleep)(delay, call.signal).catch(() => {
        throw new InvokeFailure('cancelled', `${what()} was cancelled while waiting to retry.`);
      });
    }
  } catch (error) {
    if (error instanceof InvokeFailure) {
      error.message = redactor.text(error.message);
      return { attempts, trace, redactor, failure: error };
    }
    throw error;
  }
}

/**
 * The request a call would send, secrets masked, without sending it: what an
 * approval shows. A call that cannot be built (a missing value) has none.
 */
export async function previewHttpRequest(call: Pick<HttpCall, 'impl' | 'args' | 'argumentNames' | 'resolveSecret'>): Promise<RequestPreview | null> {
  try {
    const secrets = await resolveSecrets(call);
    const scope: RenderScope = { args: call.args, argumentNames: call.argumentNames, secrets, usedSecrets: new Set() };
    const request = buildRequest(call.impl, scope);
    const redactor = new Redactor(secrets.values()).withDerived(request.derivedSecrets);
    const { request: shown } = startTrace(1, request, redactor, 0);
    return { method: shown.method, url: shown.url, headers: shown.headers, ...(shown.bodyPreview !== undefined ? { body: shown.bodyPreview } : {}) };
  } catch (error) {
    // Arguments the request cannot carry are refused when the call runs, with the reason.
    if (error instanceof InvokeFailure || (error instanceof ToolbeltError && error.code === 'invalid_args')) return null;
    throw error;
  }
}

const secretNamesByImpl = new WeakMap<HttpImpl, Set<string>>();
const NO_SECRET_VALUES: ReadonlyMap<string, string> = new Map();

async function resolveSecrets(call: Pick<HttpCall, 'impl' | 'argumentNames' | 'resolveSecret'>): Promise<ReadonlyMap<string, string>> {
  let names = secretNamesByImpl.get(call.impl);
  if (!names) {
    names = new Set<string>();
    for (const { template } of templatesOf(call.impl)) for (const name of secretNamesIn(template, call.argumentNames)) names.add(name);
    secretNamesByImpl.set(call.impl, names);
  }
  if (names.size === 0) return NO_SECRET_VALUES;
  const secrets = new Map<string, string>();
  for (const name of names) {
    const value = await call.resolveSecret(name);
    if (value !== null) secrets.set(name, value);
  }
  return secrets;
}

/** One attempt within its deadline: send (following redirects by hand), read, decode. */
async function attemptOnce(
  call: HttpCall,
  request: BuiltRequest,
  deps: HttpExecutorDeps,
  limit: Deadline,
  entry: TraceEntry | null,
  redactor: Redactor,
  what: () => string,
): Promise<{ response: HttpResponseData }> {
  const { signal, timeoutMs } = limit;
  const aborted = (stage: string): InvokeFailure =>
    call.signal.aborted
      ? new InvokeFailure('cancelled', `${what()} was cancelled ${stage}.`)
      : new InvokeFailure('timeout', `${what()} timed out after ${timeoutMs} ms ${stage}.`);

  let url = request.url;
  let method = request.method;
  let body = request.body;
  const headers = new Headers(request.headers);
  let response: IncomingResponse | undefined;
  for (let hop = 0; ; hop++) {
    try {
      response = await deps.send({ url, method, headers, body, signal });
    } catch (error) {
      if (signal.aborted) throw aborted('waiting for the response');
      throw new InvokeFailure('network', `${what()} failed: ${networkReason(error)}.`);
    }
    const location = response.headers.location;
    if (!REDIRECT_STATUSES.has(response.status) || !location) break;
    await response.discard();
    if (hop >= MAX_REDIRECTS) throw new InvokeFailure('network', `${what()} was redirected more than ${MAX_REDIRECTS} times.`);
    const next = new URL(location, url);
    if (entry) (entry.redirects ??= []).push({ status: response.status, location: redactor.text(next.toString()) });
    if (next.protocol !== 'https:' && next.protocol !== 'http:') {
      throw new InvokeFailure('network', `${what()} was redirected to a ${next.protocol} URL, which is not followed.`);
    }
    if (!isHostAllowed(next, call.allowedHosts)) {
      throw new InvokeFailure(
        'host_not_allowed',
        `${what()} was redirected to ${allowlistEntryFor(next)}, which is not an allowed host; the redirect was not followed. Allow it in Settings → Allowed hosts.`,
        { host: allowlistEntryFor(next) },
      );
    }
    if (next.origin !== url.origin) {
      // Credentials are for the origin they were written for.
      for (const name of ['authorization', 'cookie', 'proxy-authorization', ...request.sensitiveHeaders]) headers.delete(name);
    }
    if (response.status === 303 || ((response.status === 301 || response.status === 302) && method === 'POST')) {
      method = 'GET';
      body = undefined;
      headers.delete('content-type');
    }
    url = next;
  }

  const maxBytes = call.impl.limits?.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
  const streamed = call.impl.responseEncoding === 'sse' && isSuccess(response.status, call.impl.successCodes);
  let received: { text: string; size: number; events?: unknown[] };
  try {
    received = streamed
      ? await readEventStream(response, {
          maxBytes,
          idleTimeoutMs: Math.min(call.impl.limits?.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS, timeoutMs),
          deadline: signal,
          cancelled: () => call.signal.aborted,
          // What an event shows on its way to a card has the tool's secrets masked, as everything it reports.
          ...(call.onEvent ? { onEvent: (data: unknown, count: number) => call.onEvent!(redactor.value(data), count) } : {}),
        })
      : await response.readText(maxBytes);
  } catch (error) {
    if (error instanceof InvokeFailure) {
      if (streamed) error.message = `${what()}: ${error.message}`;
      throw error;
    }
    if (signal.aborted) throw aborted('while reading the response');
    throw new InvokeFailure('network', `${what()} failed while reading the response: ${networkReason(error)}.`);
  }
  const text = received.text;
  const responseHeaders = response.headers;
  if (entry) {
    entry.response = {
      status: response.status,
      headers: maskHeaders(responseHeaders, new Set(['set-cookie']), redactor),
      size: received.size,
      bodyPreview: redactor.text(text.slice(0, PREVIEW_CHARS)),
      truncated: text.length > PREVIEW_CHARS,
    };
  }
  const decoded = received.events ?? (isSuccess(response.status, call.impl.successCodes) ? decode(text, response, call.impl, what, redactor) : text);
  return { response: { status: response.status, headers: responseHeaders, text, decoded } };
}

function decode(text: string, response: IncomingResponse, impl: HttpImpl, what: () => string, redactor: Redactor): unknown {
  const encoding = impl.responseEncoding ?? (/json/i.test(response.headers['content-type'] ?? '') ? 'json' : 'text');
  if (encoding === 'text') return text;
  if (text.trim() === '') return null;
  let decoded: unknown;
  try {
    decoded = JSON.parse(text) as unknown;
  } catch (error) {
    throw new InvokeFailure('decode_failed', `${what()} answered with a body that is not JSON (${(error as Error).message}).`, {
      status: response.status,
      snippet: redactor.text(text.slice(0, SNIPPET_CHARS)),
    });
  }
  const tooDeep = jsonValueProblem(decoded, { text: false });
  if (tooDeep) {
    throw new InvokeFailure('decode_failed', `${what()} answered with JSON that ${tooDeep.message} (at ${tooDeep.path}); Toolbelt does not take values that deep.`, {
      status: response.status,
    });
  }
  return decoded;
}

function isSuccess(status: number, successCodes: number[] | undefined): boolean {
  return successCodes ? successCodes.includes(status) : status >= 200 && status < 300;
}

function startTrace(attempt: number, request: BuiltRequest, redactor: Redactor, now: number): TraceEntry {
  const entry: TraceEntry = {
    attempt,
    startedAt: new Date(now).toISOString(),
    durationMs: 0,
    request: {
      method: request.method,
      url: redactor.text(request.url.toString()),
      headers: maskHeaders(headerRecord(request.headers), request.sensitiveHeaders, redactor),
    },
  };
  if (typeof request.body === 'string') entry.request.bodyPreview = redactor.text(request.body.slice(0, PREVIEW_CHARS));
  else if (request.body) entry.request.bodyPreview = `multipart/form-data: ${[...request.body.keys()].join(', ')}`;
  return entry;
}

function headerRecord(headers: Headers): Record<string, string> {
  const record: Record<string, string> = {};
  headers.forEach((value, name) => (record[name] = value));
  return record;
}

function maskHeaders(headers: Record<string, string>, sensitive: ReadonlySet<string>, redactor: Redactor): Record<string, string> {
  return Object.fromEntries(
    Object.entries(headers).map(([name, value]) => [name, sensitive.has(name.toLowerCase()) ? MASK : redactor.text(value)]),
  );
}

function networkReason(error: unknown): string {
  // fetch wraps the socket's error as the cause; undici's request throws it as is.
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  return cause?.code ?? cause?.message ?? (error as { code?: string }).code ?? (error as Error).message ?? String(error);
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(new Error('aborted'));
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(new Error('aborted'));
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

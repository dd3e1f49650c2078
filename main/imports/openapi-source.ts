import { onFirstUse } from '../common/on-first-use.js';
import { ToolbeltError } from '../../shared/errors.js';
import type { ImportSource } from '../../shared/schemas/imports.js';
import { isHostAllowed, allowlistEntryFor } from '../tools/http/allowed-hosts.js';
import { InvokeFailure } from '../tools/invoke-error.js';
import { readBodyWithLimit } from '../tools/http/read-body.js';
import type { Dialect } from './openapi-tools.js';
import { isPostmanCollection } from './postman-tools.js';

const MAX_DOWNLOAD_BYTES = 20 * 1024 * 1024;
const DOWNLOAD_TIMEOUT_MS = 30_000;
/** Dereferencing a description in the core, however its references are woven: GitHub's 15 MB takes about one second here. */
const DEREFERENCE_TIMEOUT_MS = 20_000;

export interface LoadedApi {
  doc: Record<string, unknown>;
  dialect: Dialect;
  /** Where it was read from, for servers given relative to it. */
  sourceUrl?: string;
}

const swaggerParser = onFirstUse(async () => (await import('@apidevtools/swagger-parser')).default);
const yaml = onFirstUse(() => import('yaml'));

const invalid = (message: string) => new ToolbeltError('import_invalid', message);

/**
 * An API description from pasted text, a file's text or a URL on an allowed
 * host: parsed (JSON or YAML), checked to be OpenAPI 3.0/3.1 or Swagger 2.0,
 * and dereferenced by swagger-parser. References to other files or URLs are
 * not followed (an import reads what it was given, nothing else); circular
 * ones are left for the converter to describe.
 */
export async function loadOpenApi(source: ImportSource, allowedHosts: readonly string[]): Promise<LoadedApi> {
  const loaded = await loadApiDescription(source, allowedHosts);
  if ('collection' in loaded) throw invalid('This is a Postman collection, not an OpenAPI description.');
  return loaded;
}

/**
 * What an import reads: an OpenAPI or Swagger description (dereferenced), or a Postman collection (as it is).
 * `timedElsewhere`: a process of its own reads it, which the core ends when it takes too long; dereferencing then keeps
 * no clock (swagger-parser's asks the time at every key it crawls: 10–30 ms of Stripe's 110–150 ms). In the core it does.
 */
export async function loadApiDescription(source: ImportSource, allowedHosts: readonly string[], { timedElsewhere = false } = {}): Promise<LoadedApi | { collection: Record<string, unknown> }> {
  const { text, sourceUrl } = 'url' in source ? await download(source.url, allowedHosts) : { text: source.text, sourceUrl: undefined };
  const parsed = await parseText(text);
  if (isPostmanCollection(parsed)) return { collection: parsed };
  const dialect = dialectOf(parsed);
  let doc: Record<string, unknown>;
  try {
    doc = (await (await swaggerParser()).dereference(parsed as never, {
      resolve: { external: false },
      // Circular references become cycles of shared objects, which the converter cuts; 'ignore' would crawl every shared
      // schema again at each use (exponential in a description whose schemas fan out). A time limit bounds the rest.
      dereference: { circular: true, maxDepth: 200 },
      ...(timedElsewhere ? {} : { timeoutMs: DEREFERENCE_TIMEOUT_MS }),
    })) as unknown as Record<string, unknown>;
  } catch (error) {
    throw invalid(`The description could not be read: ${error instanceof Error ? error.message : String(error)}`);
  }
  return { doc, dialect, ...(sourceUrl ? { sourceUrl } : {}) };
}

async function parseText(text: string): Promise<Record<string, unknown>> {
  const isJson = /^\s*[{[]/.test(text);
  const parseYaml = isJson ? null : (await yaml()).parse;
  let value: unknown;
  try {
    value = parseYaml ? parseYaml(text, { maxAliasCount: 1_000, uniqueKeys: false }) : JSON.parse(text);
  } catch (error) {
    const what = isJson ? 'JSON' : 'YAML';
    throw invalid(`This is not valid ${what}: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`);
  }
  if (!value || typeof value !== 'object' || Array.isArray(value)) throw invalid('This is not an API description: it should be a JSON or YAML object with "openapi" or "swagger" at the top.');
  return value as Record<string, unknown>;
}

function dialectOf(doc: Record<string, unknown>): Dialect {
  // YAML reads `openapi: 3.1` as a number.
  const openapi = typeof doc.openapi === 'string' || typeof doc.openapi === 'number' ? String(doc.openapi) : null;
  if (openapi?.startsWith('3.0')) return 'openapi-3.0';
  if (openapi?.startsWith('3.1')) return 'openapi-3.1';
  if (doc.swagger === '2.0') return 'swagger-2.0';
  if (openapi || doc.swagger !== undefined) throw invalid(`OpenAPI ${String(openapi ?? doc.swagger)} is not supported: import OpenAPI 3.0, 3.1 or Swagger 2.0.`);
  throw invalid('This is not an OpenAPI or Swagger description (it has no "openapi" or "swagger" field at the top) nor a Postman collection.');
}

/** Redirects an import follows, each to an allowed host. */
const MAX_REDIRECTS = 5;

/** Refuses a URL an import may not fetch: another scheme than http(s), or a host not allowed (a refusal, 403, not unreachable). */
function checkFetchable(url: URL, allowedHosts: readonly string[], from?: URL): void {
  const via = from ? ` (${from.href} redirected there)` : '';
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new ToolbeltError('host_not_allowed', `${url.protocol} addresses are not fetched${via}: only http and https are. Paste the description instead.`);
  }
  if (!isHostAllowed(url, allowedHosts)) {
    throw new ToolbeltError('host_not_allowed', `${url.host} is not an allowed host${via}. Add ${allowlistEntryFor(url)} in Settings → Allowed hosts, or paste the description instead.`, {
      host: allowlistEntryFor(url),
    });
  }
}

async function download(address: string, allowedHosts: readonly string[]): Promise<{ text: string; sourceUrl: string }> {
  let url = new URL(address);
  checkFetchable(url, allowedHosts);
  let response: Response;
  for (let hop = 0; ; hop++) {
    try {
      response = await fetch(url, { redirect: 'manual', signal: AbortSignal.timeout(DOWNLOAD_TIMEOUT_MS), headers: { Accept: 'application/json, application/yaml, text/yaml, */*' } });
    } catch (error) {
      throw new ToolbeltError('import_unreachable', `The description at ${url.href} could not be fetched: ${error instanceof Error ? error.message : String(error)}.`);
    }
    const location = response.status >= 300 && response.status < 400 ? response.headers.get('location') : null;
    if (location === null) break;
    await response.body?.cancel();
    if (hop >= MAX_REDIRECTS) throw new ToolbeltError('import_unreachable', `The description at ${address} redirected more than ${MAX_REDIRECTS} times.`);
    let next: URL;
    try {
      next = new URL(location, url);
    } catch {
      throw new ToolbeltError('import_unreachable', `The description at ${url.href} redirected to an address that is not one.`);
    }
    // Each hop is checked as the first was: a redirect cannot take an import to a host the person did not allow, or to file://.
    checkFetchable(next, allowedHosts, url);
    url = next;
  }
  if (!response.ok) throw new ToolbeltError('import_unreachable', `The description at ${url.href} answered ${response.status} ${response.statusText}.`);
  try {
    const { text } = await readBodyWithLimit(response, MAX_DOWNLOAD_BYTES);
    return { text, sourceUrl: url.href };
  } catch (error) {
    if (error instanceof InvokeFailure) throw new ToolbeltError('payload_too_large', `The description at ${url.href} is larger than 20 MB; reading stopped.`);
    throw new ToolbeltError('import_unreachable', `The description at ${url.href} could not be read: ${error instanceof Error ? error.message : String(error)}.`);
  }
}

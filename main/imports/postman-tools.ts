import { ToolbeltError } from '../../shared/errors.js';
import { browserSignInNote, importedOAuth, type DescribedOAuth } from './oauth-auth.js';
import { argumentName, secretName, slugFromName, tagName, uniqueName } from '../../shared/tools/import-names.js';
import { sendsBodyNotCarried, type BundleHttp, type HttpImpl } from '../../shared/schemas/http-impl.js';
import type { ToolInput } from '../../shared/schemas/tool.js';
import type { ConvertedApi, ConvertedOperation } from './openapi-tools.js';

type Json = Record<string, unknown>;
const asObject = (value: unknown): Json => (value && typeof value === 'object' && !Array.isArray(value) ? (value as Json) : {});
const asList = (value: unknown): Json[] => (Array.isArray(value) ? value.map(asObject) : []);
/** A scalar as text; anything else (an object someone put there) as nothing. */
const str = (value: unknown): string => (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean' ? String(value) : '');
const asText = (value: unknown): string | undefined => (typeof value === 'string' && value.trim() ? value.trim() : undefined);
const textOf = (value: unknown): string => asText(value) ?? asText(asObject(value).content) ?? '';
const cut = (text: string, limit: number) => ([...text].length > limit ? `${[...text].slice(0, limit - 1).join('')}…` : text);
const VARIABLE = /\{\{([^{}]+)\}\}/g;
/** Postman's converter writes `<string>`, `<uuid>`… where a value goes: a placeholder, not a value. */
const isPlaceholder = (value: string) => /^<[^<>]*>$/.test(value.trim());

export function isPostmanCollection(doc: Json): boolean {
  return /schema\.getpostman\.com\/json\/collection\/v2\.[01]/.test(str(asObject(doc.info).schema));
}

/**
 * A Postman collection (v2.0/v2.1) as a bundle and one HTTP tool per
 * request: folders become tags, `{{baseUrl}}`-style host variables the
 * bundle's base URL, `:id` path variables, query parameters and JSON body
 * fields arguments, other variables their values, and auth the bundle's or
 * the tool's with secrets named for it.
 */
/** Folders within folders a collection may have; real ones have a handful. */
const MAX_FOLDER_DEPTH = 64;

export function convertPostman(doc: Json, options: { baseUrl?: string } = {}): ConvertedApi {
  const info = asObject(doc.info);
  const title = asText(info.name) ?? 'Imported collection';
  const notes: string[] = [];
  const variables = new Map(asList(doc.variable).map((variable) => [String(variable.key), str(variable.value)]));
  const secrets: ConvertedApi['secrets'] = [];
  const authOf = (raw: unknown, where: string): HttpImpl['auth'] | undefined => postmanAuth(asObject(raw), title, where, secrets, notes);
  const bundleAuth = authOf(doc.auth, title);

  let baseVariable: string | undefined;
  const operations: ConvertedOperation[] = [];
  const slugs = new Set<string>();
  const keys = new Set<string>();
  // Depth first, in the collection's order, without recursion: a collection nested thousands of folders deep is
  // refused with a sentence, not a stack overflow.
  const pending: { items: Json[]; next: number; folders: string[] }[] = [{ items: asList(doc.item), next: 0, folders: [] }];
  while (pending.length > 0) {
    const level = pending.at(-1)!;
    const item = level.items[level.next++];
    if (!item) {
      pending.pop();
      continue;
    }
    if (Array.isArray(item.item)) {
      if (level.folders.length >= MAX_FOLDER_DEPTH) {
        throw new ToolbeltError('import_invalid', `This collection nests folders more than ${MAX_FOLDER_DEPTH} deep (under “${cut(level.folders.join(' › '), 200)}”); Toolbelt reads at most ${MAX_FOLDER_DEPTH} levels.`);
      }
      pending.push({ items: asList(item.item), next: 0, folders: [...level.folders, str(item.name)] });
      continue;
    }
    const converted = convertRequest(item, level.folders, { variables, slugs, keys, authOf, bundleAuth });
    baseVariable ??= converted.baseVariable;
    operations.push(converted.operation);
  }

  const baseUrl = options.baseUrl ?? (baseVariable ? variables.get(baseVariable) : undefined);
  const http: BundleHttp = {};
  if (baseUrl && /^https?:\/\//.test(baseUrl)) {
    http.baseUrl = baseUrl.replace(/\/+$/, '');
    http.allowedHosts = [new URL(baseUrl).host.toLowerCase()];
  } else if (baseVariable) {
    notes.push(`The collection's requests start at {{${baseVariable}}}, which has no URL as its value; set the base URL of the API before you run its tools.`);
  }
  if (bundleAuth) http.auth = bundleAuth;
  return {
    title,
    format: `Postman collection ${/v2\.0/.test(String(info.schema)) ? 'v2.0' : 'v2.1'}`,
    bundle: { slug: slugFromName(title, { splitCase: false }) ?? 'imported-collection', displayName: cut(title, 200), description: cut(textOf(info.description), 8_000), ...(Object.keys(http).length ? { http } : {}) },
    secrets,
    notes,
    operations,
  };
}

function postmanAuth(auth: Json, title: string, where: string, secrets: ConvertedApi['secrets'], notes: string[]): HttpImpl['auth'] | undefined {
  const type = asText(auth.type);
  if (!type) return undefined;
  if (type === 'noauth') return { kind: 'none' };
  const settings = new Map(asList(auth[type]).map((entry) => [String(entry.key), str(entry.value)]));
  const secret = (words: string, description: string) => {
    const name = secretName(title, words);
    if (!secrets.some((known) => known.name === name)) secrets.push({ name, description });
    return `\${secret.${name}}`;
  };
  if (type === 'bearer') return { kind: 'bearer', token: secret('token', `The bearer token for ${where}`) };
  if (type === 'basic') return { kind: 'basic', username: settings.get('username') && !settings.get('username')!.includes('{{') ? settings.get('username')! : secret('username', `The user name for ${where}`), password: secret('password', `The password for ${where}`) };
  if (type === 'apikey') {
    const location = settings.get('in') === 'query' ? 'query' : 'header';
    return { kind: 'apiKey', location, name: settings.get('key') || 'X-Api-Key', value: secret('api key', `The API key for ${where}`) };
  }
  if (type === 'oauth2') {
    const grant = settings.get('grant_type');
    const described: DescribedOAuth = {
      grant: grant === 'authorization_code' || grant === 'authorization_code_with_pkce' ? 'authorizationCode' : grant === 'client_credentials' ? 'clientCredentials' : 'other',
      authorizationUrl: settings.get('authUrl'),
      tokenUrl: settings.get('accessTokenUrl'),
      scopes: (settings.get('scope') ?? '').split(/\s+/).filter(Boolean),
    };
    const imported = importedOAuth(described, secret, where);
    if (imported) {
      const note = browserSignInNote(where);
      if (imported.kind === 'oauth2' && imported.flow === 'authorizationCode' && !notes.includes(note)) notes.push(note);
      return imported;
    }
    const note = `${where} signs in with OAuth 2 (${grant ?? 'a grant'}, which Toolbelt cannot run itself): its tools send the token you put in the secret as a bearer token.`;
    if (!notes.includes(note)) notes.push(note);
    return { kind: 'bearer', token: secret('token', `A bearer token for ${where}`) };
  }
  if (!notes.some((note) => note.includes(`${type} auth`))) notes.push(`${type} auth cannot be carried over; tools that need it will be refused by the API until you add what it needs.`);
  return undefined;
}

interface RequestContext {
  variables: Map<string, string>;
  slugs: Set<string>;
  /** Operation keys given so far. */
  keys: Set<string>;
  authOf: (raw: unknown, where: string) => HttpImpl['auth'] | undefined;
  bundleAuth: HttpImpl['auth'] | undefined;
}

function uniqueKey(key: string, taken: Set<string>): string {
  let unique = key;
  for (let n = 2; taken.has(unique); n++) unique = `${key} #${n}`;
  taken.add(unique);
  return unique;
}

function convertRequest(item: Json, folders: string[], context: RequestContext): { operation: ConvertedOperation; baseVariable?: string } {
  const request = asObject(item.request);
  const name = asText(item.name) ?? 'Request';
  const method = (asText(request.method) ?? 'GET').toUpperCase();
  const rawUrl = request.url;
  const url = typeof rawUrl === 'string' ? { raw: rawUrl } : asObject(rawUrl);
  const hostParts = Array.isArray(url.host) ? url.host.map(String) : [];
  const pathParts = Array.isArray(url.path) ? url.path.map(String) : [];
  const path = `/${pathParts.join('/')}`;
  // Two requests to the same place are two tools (a collection often has a request per case): keys stay unique.
  const key = uniqueKey(`${method} ${path}`, context.keys);
  const tags = [...new Set(folders.flatMap((folder) => tagName(folder) ?? []))].slice(0, 32);
  const slug = uniqueName(slugFromName(name) ?? slugFromName(key) ?? 'request', context.slugs);
  const base: ConvertedOperation = { key, method, path, slug, displayName: cut(name, 200), tags };
  if (!['GET', 'POST', 'PUT', 'PATCH', 'DELETE'].includes(method)) return { operation: { ...base, skipped: `${method} requests are not tools: only GET, POST, PUT, PATCH and DELETE are.` } };

  const properties: Json = {};
  const required: string[] = [];
  const argNames = new Set<string>();
  const argument = (raw: string, schema: Json, isRequired: boolean) => {
    const arg = uniqueName(argumentName(raw), argNames, 128, '_');
    properties[arg] = schema;
    if (isRequired) required.push(arg);
    return `\${${arg}}`;
  };
  /** Variables with a value become that value; one without stays for the caller to fill in. */
  const fill = (text: string) => text.replace(VARIABLE, (whole, variable: string) => context.variables.get(variable) ?? argument(variable, { type: 'string', description: `The collection variable ${variable}` }, true));

  // The host: one {{variable}} is the API's base URL (a bundle setting); anything else is written out.
  const hostVariable = hostParts.length === 1 ? /^\{\{([^{}]+)\}\}$/.exec(hostParts[0]!)?.[1] : undefined;
  const pathVariables = new Map(asList(url.variable).map((variable) => [String(variable.key), variable]));
  const renderedPath = pathParts
    .map((segment) => {
      if (!segment.startsWith(':')) return fill(segment);
      const variable = pathVariables.get(segment.slice(1));
      return argument(segment.slice(1), { type: 'string', ...(textOf(variable?.description) ? { description: textOf(variable?.description) } : {}) }, true);
    })
    .join('/');
  let urlTemplate: string;
  if (hostVariable) urlTemplate = `/${renderedPath}`;
  else {
    const protocol = asText(url.protocol) ?? 'https';
    const host = hostParts.map(fill).join('.');
    urlTemplate = host ? `${protocol}://${host}${str(url.port) ? `:${str(url.port)}` : ''}/${renderedPath}` : fill(str(url.raw));
  }
  const impl: HttpImpl = { method: method as HttpImpl['method'], urlTemplate };

  for (const parameter of asList(url.query)) {
    if (parameter.disabled === true || !asText(parameter.key)) continue;
    const value = str(parameter.value);
    const description = textOf(parameter.description);
    const example = isPlaceholder(value) || value.includes('{{') ? {} : { examples: [value] };
    const template = argument(String(parameter.key), { type: 'string', ...example, ...(description ? { description } : {}) }, /\(Required\)/i.test(description));
    // A key given twice (status=a&status=b) is sent twice, each its own argument.
    const query = (impl.query ??= {});
    const earlier = query[String(parameter.key)];
    query[String(parameter.key)] = earlier === undefined ? template : [...(Array.isArray(earlier) ? earlier : [earlier]), template];
  }
  for (const header of asList(request.header)) {
    if (header.disabled === true || !asText(header.key)) continue;
    (impl.headers ??= {})[String(header.key)] = fill(str(header.value));
  }

  const body = asObject(request.body);
  const mode = asText(body.mode);
  if (mode === 'raw' && asText(body.raw)) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(String(body.raw).replace(VARIABLE, (whole, variable: string) => context.variables.get(variable) ?? whole));
    } catch {
      parsed = undefined;
    }
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) {
      // Each field of a JSON body is an argument, its value the example.
      impl.body = Object.fromEntries(Object.entries(parsed).map(([field, value]) => [field, argument(field, { ...schemaOfExample(value), examples: [value] }, false)]));
      if (!Object.keys(impl.headers ?? {}).some((header) => header.toLowerCase() === 'content-type')) (impl.headers ??= {})['Content-Type'] = 'application/json';
    } else {
      impl.bodyTemplate = fill(String(body.raw));
    }
  } else if (mode === 'formdata' || mode === 'urlencoded') {
    // Each field is an argument; a form is sent form-encoded, the header saying so.
    const fields = asList(mode === 'formdata' ? body.formdata : body.urlencoded).filter((field) => field.disabled !== true && asText(field.key));
    impl.body = Object.fromEntries(fields.map((field) => [String(field.key), argument(String(field.key), { type: 'string' }, false)]));
    if (mode === 'formdata') impl.multipart = true;
    else if (!Object.keys(impl.headers ?? {}).some((header) => header.toLowerCase() === 'content-type')) (impl.headers ??= {})['Content-Type'] = 'application/x-www-form-urlencoded';
  } else if (mode === 'file' || mode === 'graphql') {
    return { operation: { ...base, skipped: `its ${mode} body cannot be sent by an HTTP tool yet: only JSON, form and multipart bodies can` }, ...(hostVariable ? { baseVariable: hostVariable } : {}) };
  }
  // A form on a GET or DELETE is sent in the query string (build-request.ts); a GET carries no other body.
  if (sendsBodyNotCarried(impl)) {
    return { operation: { ...base, skipped: `it sends a body with ${method}, which HTTP tools do not do (only form fields, sent in the query)` } };
  }

  const ownAuth = request.auth === undefined || request.auth === null ? undefined : context.authOf(request.auth, name);
  if (ownAuth && JSON.stringify(ownAuth) !== JSON.stringify(context.bundleAuth)) impl.auth = ownAuth;

  const tool: ToolInput = {
    displayName: base.displayName,
    description: cut(textOf(request.description) || textOf(item.description), 8_000),
    tags,
    type: 'http',
    isEnabled: true,
    ...(method !== 'GET' ? { requiresApproval: true } : {}),
    argSchema: { type: 'object', properties, ...(required.length ? { required: [...new Set(required)] } : {}), additionalProperties: false },
    impl,
  };
  return { operation: { ...base, tool }, ...(hostVariable ? { baseVariable: hostVariable } : {}) };
}

function schemaOfExample(value: unknown): Json {
  if (typeof value === 'number') return { type: Number.isInteger(value) ? 'integer' : 'number' };
  if (typeof value === 'boolean') return { type: 'boolean' };
  if (Array.isArray(value)) return { type: 'array' };
  if (value && typeof value === 'object') return { type: 'object' };
  return { type: value === null ? 'null' : 'string' };
}

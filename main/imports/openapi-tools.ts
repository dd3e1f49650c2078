import { browserSignInNote, importedOAuth, type DescribedOAuth } from './oauth-auth.js';
import { QUERY_FORM_METHODS, type BundleHttp, type HttpImpl } from '../../shared/schemas/http-impl.js';
import type { ToolInput } from '../../shared/schemas/tool.js';
import { schemaCache, schemaSizeEstimator, toJsonSchema2020, toJsonSchema2020Within, type Dialect, type SchemaCache } from './json-schema-2020.js';
import { parameterSchema, parameterStyle } from './openapi-parameters.js';
import { argumentName, secretName, slugFromName, tagName, uniqueName } from '../../shared/tools/import-names.js';

export type { Dialect };
type Json = Record<string, unknown>;

/** An operation before it meets the bundle it goes into. */
export interface ConvertedOperation {
  key: string;
  method: string;
  path: string;
  operationId?: string;
  slug: string;
  displayName: string;
  tags: string[];
  deprecated?: boolean;
  tool?: ToolInput;
  skipped?: string;
  /** How the tool departs from the description, for the preview (a GET's form body sent in its query). */
  note?: string;
}

export interface ConvertedApi {
  title: string;
  format: string;
  apiVersion?: string;
  bundle: { slug: string; displayName: string; description: string; http?: BundleHttp };
  secrets: { name: string; description: string }[];
  notes: string[];
  operations: ConvertedOperation[];
}

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;
const TOOL_METHODS = new Set(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']);
const MAX_OUTPUT_SCHEMA_CHARS = 65_536;
/** From this many tools an API counts as large: its answers are checked against their schemas as warnings. */
const LARGE_API_TOOLS = 100;
const COOKIE_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const JSON_MEDIA = /^application\/(?:[\w.+-]+\+)?json\b/i;

const asObject = (value: unknown): Json => (value && typeof value === 'object' && !Array.isArray(value) ? (value as Json) : {});
const asText = (value: unknown): string | undefined => (typeof value === 'string' && value.trim() ? value.trim() : undefined);
const cut = (text: string, limit: number) => ([...text].length > limit ? `${[...text].slice(0, limit - 1).join('')}…` : text);

/**
 * An API description (already parsed and dereferenced) as a bundle and one
 * HTTP tool per operation. Pure: the same description always gives the
 * same tools, which is what lets a re-import say what changed.
 */
export function convertOpenApi(doc: Json, dialect: Dialect, options: { sourceUrl?: string; baseUrl?: string } = {}): ConvertedApi {
  const info = asObject(doc.info);
  const title = asText(info.title) ?? 'Imported API';
  const notes: string[] = [];
  const bundleSlug = slugFromName(title, { splitCase: false }) ?? 'imported-api';
  const auth = securityAuth(doc, dialect, title, notes);
  const baseUrl = options.baseUrl ?? serverUrl(doc, dialect, options.sourceUrl, notes);
  const http: BundleHttp = {};
  if (baseUrl) {
    http.baseUrl = baseUrl.replace(/\/+$/, '');
    const host = allowedHostOf(baseUrl);
    if (host) http.allowedHosts = [host];
  }
  if (auth.bundleAuth) http.auth = auth.bundleAuth;

  const slugs = new Set<string>();
  const sizeOf = schemaSizeEstimator();
  const schemas = schemaCache();
  const operations: ConvertedOperation[] = [];
  const paths = asObject(doc.paths);
  for (const [path, rawItem] of Object.entries(paths)) {
    const item = asObject(rawItem);
    for (const method of METHODS) {
      if (!(method in item)) continue;
      const operation = asObject(item[method]);
      operations.push(convertOperation({ doc, dialect, path, method: method.toUpperCase(), item, operation, slugs, auth, sizeOf, schemas }));
    }
  }
  // A large public API's answers drift from its description (a field added, a null where a string was said): its
  // tools take such answers with a warning instead of failing, which the preview says and the bundle's settings change.
  const tools = operations.filter((operation) => operation.tool).length;
  if (tools >= LARGE_API_TOOLS) {
    http.outputMismatch = 'warn';
    notes.push(`This API has ${tools} operations: an answer that does not match the schema its description gives is taken with a warning rather than failing the call (the bundle's connection settings change this).`);
  }
  const format = dialect === 'swagger-2.0' ? 'Swagger 2.0' : `OpenAPI ${String(doc.openapi)}`;
  return {
    title,
    format,
    ...(asText(info.version) ? { apiVersion: asText(info.version) } : {}),
    bundle: { slug: bundleSlug, displayName: cut(title, 200), description: cut(asText(info.description) ?? '', 8_000), ...(Object.keys(http).length ? { http } : {}) },
    secrets: auth.secrets,
    notes,
    operations,
  };
}

// ── where the API is ──────────────────────────────────────────────────

function serverUrl(doc: Json, dialect: Dialect, sourceUrl: string | undefined, notes: string[]): string | undefined {
  let url: string | undefined;
  if (dialect === 'swagger-2.0') {
    const host = asText(doc.host);
    const schemes = Array.isArray(doc.schemes) ? (doc.schemes as unknown[]) : [];
    const scheme = schemes.includes('https') ? 'https' : schemes.includes('http') ? 'http' : sourceUrl ? new URL(sourceUrl).protocol.slice(0, -1) : 'https';
    const basePath = asText(doc.basePath) ?? '';
    if (host) url = `${scheme}://${host}${basePath}`;
    else if (sourceUrl) url = new URL(basePath || '/', sourceUrl).href;
  } else {
    const [first] = Array.isArray(doc.servers) ? (doc.servers as unknown[]).map(asObject) : [];
    const template = asText(first?.url);
    if (template) {
      // Server variables take their defaults: {region}.api.example.com → eu.api.example.com.
      const variables = asObject(first!.variables);
      const filled = template.replace(/\{([^}]+)\}/g, (whole, name: string) => asText(asObject(variables[name]).default) ?? whole);
      if (/^https?:\/\//i.test(filled)) url = filled;
      else if (sourceUrl) url = new URL(filled, sourceUrl).href;
      else notes.push(`The description gives the server as "${filled}", relative to where it was published; set the base URL of the API before you run its tools.`);
    }
  }
  if (!url && !notes.length) notes.push('The description does not say where the API is; set the base URL of the API before you run its tools.');
  if (url && /\{[^}]+\}/.test(url)) {
    notes.push(`The server address ${url} has a part without a default value; set the base URL of the API before you run its tools.`);
    return undefined;
  }
  return url;
}

function allowedHostOf(url: string): string | null {
  try {
    const parsed = new URL(url);
    return parsed.host.toLowerCase();
  } catch {
    return null;
  }
}

// ── how to sign in ────────────────────────────────────────────────────

interface AuthPlan {
  bundleAuth?: HttpImpl['auth'];
  bundleScheme?: string;
  /** Scheme name → the auth a tool of that scheme uses (null: cannot be carried over). */
  schemes: Map<string, HttpImpl['auth'] | null>;
  secrets: { name: string; description: string }[];
}

function securityAuth(doc: Json, dialect: Dialect, title: string, notes: string[]): AuthPlan {
  const definitions = asObject(dialect === 'swagger-2.0' ? doc.securityDefinitions : asObject(doc.components).securitySchemes);
  const plan: AuthPlan = { schemes: new Map(), secrets: [] };
  const secret = (schemeName: string, what: string, description: string) => {
    // "api_key" needs no second "key": API_KEY, not API_KEY_KEY.
    const name = secretName(title, schemeName.replace(/[^A-Za-z]/g, '').toLowerCase().endsWith(what) ? schemeName : `${schemeName} ${what}`);
    if (!plan.secrets.some((known) => known.name === name)) plan.secrets.push({ name, description });
    return `\${secret.${name}}`;
  };
  for (const [schemeName, raw] of Object.entries(definitions)) {
    const scheme = asObject(raw);
    const type = asText(scheme.type);
    const where = `${title} (${schemeName})`;
    let auth: HttpImpl['auth'] | null = null;
    if (type === 'apiKey' && (scheme.in === 'header' || scheme.in === 'query') && asText(scheme.name)) {
      auth = { kind: 'apiKey', location: scheme.in, name: asText(scheme.name)!, value: secret(schemeName, 'key', `The API key of ${where}, sent as ${scheme.in} ${asText(scheme.name)}`) };
    } else if (type === 'oauth2' && (auth = importedOAuth(describedOAuth(scheme, dialect), (what, description) => secret(schemeName, what, description), where))) {
      if (auth.kind === 'oauth2' && auth.flow === 'authorizationCode') notes.push(browserSignInNote(where));
    } else if ((type === 'http' && /^bearer$/i.test(String(scheme.scheme))) || type === 'oauth2' || type === 'openIdConnect') {
      auth = { kind: 'bearer', token: secret(schemeName, 'token', `A bearer token for ${where}`) };
      if (type !== 'http') notes.push(`${schemeName} signs in with ${type === 'oauth2' ? 'OAuth 2 (a flow Toolbelt cannot run itself)' : 'OpenID Connect'}: its tools send the token you put in the secret as a bearer token.`);
    } else if ((type === 'http' && /^basic$/i.test(String(scheme.scheme))) || type === 'basic') {
      auth = { kind: 'basic', username: secret(schemeName, 'username', `The user name for ${where}`), password: secret(schemeName, 'password', `The password for ${where}`) };
    } else {
      notes.push(`The security scheme ${schemeName} (${type ?? 'of no type'}${asText(scheme.in) ? ` in ${asText(scheme.in)}` : ''}) cannot be carried over; tools that need it will be refused by the API until you add what it needs.`);
    }
    plan.schemes.set(schemeName, auth);
  }
  const first = firstScheme(doc.security, plan.schemes);
  if (first) {
    plan.bundleScheme = first;
    plan.bundleAuth = plan.schemes.get(first)!;
  }
  return plan;
}

/** An OAuth 2 scheme's flows, from OpenAPI 3's `flows` or Swagger 2.0's `flow`: the authorization code first, then client credentials. */
function describedOAuth(scheme: Json, dialect: Dialect): DescribedOAuth {
  if (dialect === 'swagger-2.0') {
    const grant = scheme.flow === 'accessCode' ? 'authorizationCode' : scheme.flow === 'application' ? 'clientCredentials' : 'other';
    return { grant, authorizationUrl: asText(scheme.authorizationUrl), tokenUrl: asText(scheme.tokenUrl), scopes: Object.keys(asObject(scheme.scopes)) };
  }
  const flows = asObject(scheme.flows);
  for (const grant of ['authorizationCode', 'clientCredentials'] as const) {
    const flow = asObject(flows[grant]);
    if (Object.keys(flow).length) return { grant, authorizationUrl: asText(flow.authorizationUrl), tokenUrl: asText(flow.tokenUrl), scopes: Object.keys(asObject(flow.scopes)) };
  }
  return { grant: 'other', scopes: [] };
}

/** The first scheme of a security requirement list that can be carried over; undefined when none is needed or none can. */
function firstScheme(security: unknown, schemes: Map<string, HttpImpl['auth'] | null>): string | undefined {
  if (!Array.isArray(security)) return undefined;
  for (const requirement of security.map(asObject)) {
    for (const name of Object.keys(requirement)) if (schemes.get(name)) return name;
  }
  return undefined;
}

// ── one operation ─────────────────────────────────────────────────────

interface OperationContext {
  doc: Json;
  dialect: Dialect;
  path: string;
  method: string;
  item: Json;
  operation: Json;
  slugs: Set<string>;
  auth: AuthPlan;
  /** About how long a schema of this description is, written out (shared schemas measured once). */
  sizeOf: (schema: unknown) => number;
  /** Schemas of this description already converted whole (json-schema-2020.ts). */
  schemas: SchemaCache;
}

function convertOperation(context: OperationContext): ConvertedOperation {
  const { path, method, operation, dialect } = context;
  const key = `${method} ${path}`;
  const operationId = asText(operation.operationId);
  const slug = uniqueName(slugFromName(operationId ?? '') ?? slugFromName(`${method} ${path}`) ?? 'operation', context.slugs);
  const summary = asText(operation.summary);
  const displayName = cut(summary ?? operationId ?? key, 200);
  const tags = (Array.isArray(operation.tags) ? (operation.tags as unknown[]) : []).flatMap((tag) => (typeof tag === 'string' ? (tagName(tag) ?? []) : [])).slice(0, 32);
  const base: ConvertedOperation = { key, method, path, ...(operationId ? { operationId } : {}), slug, displayName, tags: [...new Set(tags)], ...(operation.deprecated === true ? { deprecated: true } : {}) };
  if (!TOOL_METHODS.has(method)) return { ...base, skipped: `${method} requests are not tools: only GET, POST, PUT, PATCH and DELETE are.` };

  const parameters = mergedParameters(asObject(context.item), operation);
  const properties: Json = {};
  const required: string[] = [];
  const argNames = new Set<string>();
  const impl: HttpImpl = { method: method as HttpImpl['method'], urlTemplate: path };
  let urlTemplate = path;
  const notes: string[] = [];

  for (const parameter of parameters) {
    const name = asText(parameter.name);
    const location = parameter.in;
    if (!name) continue;
    if (location === 'body' || location === 'formData') continue;
    if (location === 'header' && /^(authorization|content-type|accept)$/i.test(name)) continue;
    if (location === 'cookie' && !COOKIE_NAME.test(name)) {
      notes.push(`the cookie ${name}, whose name a Cookie header cannot carry`);
      continue;
    }
    const argument = uniqueName(argumentName(name), argNames, 128, '_');
    const schema = parameterSchema(parameter, dialect, context.schemas);
    properties[argument] = withDescription(schema, parameter.description, argument !== name ? name : undefined);
    if (parameter.required === true || location === 'path') required.push(argument);
    if (location === 'path') urlTemplate = urlTemplate.split(`{${name}}`).join(`\${${argument}}`);
    else if (location === 'query') (impl.query ??= {})[name] = `\${${argument}}`;
    else if (location === 'header') (impl.headers ??= {})[name] = `\${${argument}}`;
    else if (location === 'cookie') (impl.cookies ??= {})[name] = `\${${argument}}`;
    const style = parameterStyle(parameter, schema, dialect, argument);
    if (style) (impl.styles ??= {})[argument] = style;
  }
  if (/(?<!\$)\{[^}]+\}/.test(urlTemplate)) return { ...base, skipped: `the path ${path} has a part no parameter describes` };
  impl.urlTemplate = urlTemplate;

  const body = requestBody(context, parameters);
  if (body.skipped) return { ...base, skipped: body.skipped };
  // A form on a GET or DELETE (Stripe describes its list filters so) is sent in the query, as an HTML form with that
  // method is, and as the API's own libraries send it: the tool's form fields go there (build-request.ts).
  // A form of no fields (most of Stripe's lists) says nothing: the tool sends none.
  const bodySchema = body.schema ? toJsonSchema2020(body.schema, dialect, context.schemas) : undefined;
  const bodyless = QUERY_FORM_METHODS.has(method);
  // A GET carries no other body; a DELETE may (DigitalOcean's send JSON), its form going in the query as a GET's.
  if (bodySchema && method === 'GET' && !body.form) return { ...base, skipped: `it sends a ${body.multipart ? 'multipart' : 'JSON'} body with ${method}, which HTTP tools do not do` };
  const formFields = bodySchema && bodyless && body.form ? Object.keys(asObject(bodySchema.properties)).length : 0;
  if (bodySchema && (!bodyless || !body.form || formFields > 0)) {
    const schema = bodySchema;
    const bodyProperties = asObject(schema.properties);
    const flat = schema.type === 'object' && Object.keys(bodyProperties).length > 0 && !schema.additionalProperties && Object.keys(bodyProperties).every((name) => !argNames.has(argumentName(name)));
    if (flat || body.multipart || body.form) {
      // Each field of an object body is an argument of its own: what a model fills in best.
      const fields: Json = {};
      const bodyRequired = new Set(Array.isArray(schema.required) ? (schema.required as string[]) : []);
      for (const [name, fieldSchema] of Object.entries(bodyProperties)) {
        const argument = uniqueName(argumentName(name), argNames, 128, '_');
        properties[argument] = argument !== name ? withDescription(asObject(fieldSchema), undefined, name) : fieldSchema;
        fields[name] = `\${${argument}}`;
        if (bodyRequired.has(name) && body.required) required.push(argument);
      }
      impl.body = fields;
      if (body.multipart) impl.multipart = true;
      if (body.form) (impl.headers ??= {})['Content-Type'] = 'application/x-www-form-urlencoded';
    } else {
      const argument = uniqueName('body', argNames, 128, '_');
      properties[argument] = withDescription(schema, body.description, undefined);
      if (body.required) required.push(argument);
      impl.bodyTemplate = `\${${argument}}`;
      (impl.headers ??= {})['Content-Type'] = body.mediaType ?? 'application/json';
    }
  }

  const operationAuth = operationSecurity(operation, context.auth);
  if (operationAuth !== undefined) impl.auth = operationAuth;

  // An answer that is only an event stream is read as one (its value the list of the events' data, which the
  // description's schema, if any, does not describe).
  const streams = answersWithEvents(operation, context.doc, dialect);
  if (streams) impl.responseEncoding = 'sse';
  // Some APIs describe an answer in hundreds of kilobytes of schema: kept, it would make every tool file that large.
  const answer = streams ? undefined : responseSchema(operation, dialect, context);
  const outputSchema = answer === TOO_LARGE ? undefined : answer;
  if (answer === TOO_LARGE) notes.push('the schema of its answer (over 64 KB), so the answer is not checked');
  const tool: ToolInput = {
    displayName,
    description: cut(descriptionOf(summary, asText(operation.description), notes), 8_000),
    tags: base.tags,
    type: 'http',
    isEnabled: true,
    // Anything but a read is a change in someone's account: asked before it runs.
    ...(method !== 'GET' ? { requiresApproval: true } : {}),
    argSchema: { type: 'object', properties, ...(required.length ? { required: [...new Set(required)] } : {}), additionalProperties: false },
    ...(outputSchema ? { outputSchema } : {}),
    impl,
  };
  return { ...base, tool, ...(formFields > 0 ? { note: `Its form fields are sent in the query string: the description gives ${method} a form body, which the API's own libraries send as query parameters.` } : {}) };
}

/** The operation's description (its summary is the tool's name already), and what the import left out. */
function descriptionOf(summary: string | undefined, description: string | undefined, notes: string[]): string {
  return [description ?? summary, notes.length ? `Imported without: ${notes.join('; ')}.` : undefined].filter(Boolean).join('\n\n');
}

/** Path-level parameters apply unless the operation redefines one (same name and place). */
function mergedParameters(item: Json, operation: Json): Json[] {
  const own = (Array.isArray(operation.parameters) ? (operation.parameters as unknown[]) : []).map(asObject);
  const shared = (Array.isArray(item.parameters) ? (item.parameters as unknown[]) : []).map(asObject);
  const ownKeys = new Set(own.map((parameter) => `${String(parameter.in)} ${String(parameter.name)}`));
  return [...shared.filter((parameter) => !ownKeys.has(`${String(parameter.in)} ${String(parameter.name)}`)), ...own];
}

function withDescription(schema: Json, description: unknown, originalName: string | undefined): Json {
  const text = [asText(description) ?? asText(schema.description), originalName ? `(sent as "${originalName}")` : undefined].filter(Boolean).join(' ');
  return text ? { ...schema, description: text } : schema;
}

interface Body {
  schema?: unknown;
  required?: boolean;
  description?: string;
  mediaType?: string;
  multipart?: boolean;
  /** Sent form-encoded (application/x-www-form-urlencoded): its fields are arguments. */
  form?: boolean;
  skipped?: string;
}

function requestBody(context: OperationContext, parameters: Json[]): Body {
  const { operation, dialect } = context;
  if (dialect === 'swagger-2.0') {
    const bodyParameter = parameters.find((parameter) => parameter.in === 'body');
    if (bodyParameter) return { schema: bodyParameter.schema, required: bodyParameter.required === true, description: asText(bodyParameter.description) };
    const form = parameters.filter((parameter) => parameter.in === 'formData');
    if (!form.length) return {};
    const listOf = (value: unknown): string[] => (Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : []);
    const consumes = [...listOf(operation.consumes), ...listOf(context.doc.consumes)];
    const multipart = consumes.some((type) => /multipart\/form-data/i.test(type)) || form.some((parameter) => parameter.type === 'file');
    const properties = Object.fromEntries(form.map((parameter) => [String(parameter.name), parameterSchema(parameter, dialect, context.schemas)]));
    const required = form.filter((parameter) => parameter.required === true).map((parameter) => String(parameter.name));
    return { schema: { type: 'object', properties, required }, required: true, ...(multipart ? { multipart: true } : { form: true }) };
  }
  const body = asObject(operation.requestBody);
  const content = asObject(body.content);
  const types = Object.keys(content);
  if (!types.length) return {};
  // JSON first (a body of any type, */*, is sent as JSON too), then a form, then multipart.
  const json = types.find((type) => JSON_MEDIA.test(type)) ?? types.find((type) => type.trim() === '*/*');
  const form = types.find((type) => /x-www-form-urlencoded/i.test(type));
  const multipart = types.find((type) => /multipart\/form-data/i.test(type));
  const chosen = json ?? form ?? multipart;
  if (!chosen) {
    return { skipped: `its request body (${types.join(', ')}) cannot be sent by an HTTP tool yet: only JSON, form and multipart bodies can` };
  }
  return {
    schema: asObject(content[chosen]).schema ?? {},
    required: body.required === true,
    description: asText(body.description),
    mediaType: chosen === '*/*' ? 'application/json' : chosen,
    ...(json ? {} : chosen === form ? { form: true } : { multipart: true }),
  };
}

/** The auth a tool sets for itself: none where the operation needs none, another scheme than the bundle's; undefined to inherit. */
function operationSecurity(operation: Json, auth: AuthPlan): HttpImpl['auth'] | undefined {
  if (!Array.isArray(operation.security)) return undefined;
  if (operation.security.length === 0 || operation.security.some((requirement) => Object.keys(asObject(requirement)).length === 0)) {
    return auth.bundleAuth ? { kind: 'none' } : undefined;
  }
  const scheme = firstScheme(operation.security, auth.schemes);
  if (!scheme || scheme === auth.bundleScheme) return undefined;
  return auth.schemes.get(scheme) ?? undefined;
}

/** Whether the operation's success answer is an event stream (text/event-stream) and nothing JSON. */
function answersWithEvents(operation: Json, doc: Json, dialect: Dialect): boolean {
  const response = successResponse(operation);
  if (!response) return false;
  const types =
    dialect === 'swagger-2.0'
      ? ((Array.isArray(operation.produces) ? operation.produces : Array.isArray(doc.produces) ? doc.produces : []) as unknown[]).map(String)
      : Object.keys(asObject(response.content));
  return types.some((type) => /^text\/event-stream\b/i.test(type)) && !types.some((type) => JSON_MEDIA.test(type));
}

/** The operation's first success answer (2xx, lowest first), or undefined when it describes none. */
function successResponse(operation: Json): Json | undefined {
  const responses = asObject(operation.responses);
  const success = Object.keys(responses)
    .filter((status) => /^2(?:\d\d|XX)$/i.test(status))
    .sort()[0];
  return success ? asObject(responses[success]) : undefined;
}

const TOO_LARGE = 'too large';

/** The schema of the success answer, within MAX_OUTPUT_SCHEMA_CHARS (TOO_LARGE past it). */
function responseSchema(operation: Json, dialect: Dialect, { sizeOf, schemas }: Pick<OperationContext, 'sizeOf' | 'schemas'>): Json | typeof TOO_LARGE | undefined {
  const response = successResponse(operation);
  if (!response) return undefined;
  const content = asObject(response.content);
  const json = Object.keys(content).find((type) => JSON_MEDIA.test(type));
  const schema = dialect === 'swagger-2.0' ? response.schema : json ? asObject(content[json]).schema : undefined;
  if (!schema) return undefined;
  // Far past the limit as written: not converted at all (the estimate counts what converting keeps, give or take).
  if (sizeOf(schema) > MAX_OUTPUT_SCHEMA_CHARS * 1.25) return TOO_LARGE;
  return toJsonSchema2020Within(schema, dialect, MAX_OUTPUT_SCHEMA_CHARS, schemas) ?? TOO_LARGE;
}

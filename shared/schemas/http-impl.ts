import { Type, type Static } from '@sinclair/typebox';
import { AllowedHostSchema } from './settings.js';

const HEADER_NAME_PATTERN = "^[!#$%&'*+.^_`|~0-9A-Za-z-]+$";
const Scalar = Type.Union([Type.String(), Type.Number(), Type.Boolean()]);
const TemplateString = Type.String({ description: 'Text with ${arg}, ${args.name} or ${secret.NAME} placeholders' });

export const HttpMethodSchema = Type.Union([
  Type.Literal('GET'),
  Type.Literal('POST'),
  Type.Literal('PUT'),
  Type.Literal('PATCH'),
  Type.Literal('DELETE'),
]);

const EndpointUrl = (what: string) =>
  Type.String({ pattern: '^https?://[^/?#]+', maxLength: 2048, hint: `Give the ${what}, starting with http:// or https://.` });
const oauthRequestFields = {
  scope: Type.Optional(Type.String({ maxLength: 2_000 })),
  audience: Type.Optional(Type.String({ maxLength: 2_000 })),
  /** How the client proves itself to the token endpoint: HTTP Basic (the default) or in the form. */
  clientAuth: Type.Optional(Type.Union([Type.Literal('basic'), Type.Literal('post')])),
};

export const HttpAuthSchema = Type.Union([
  /** No credentials, even where the bundle has some (a public endpoint of an API that otherwise needs a key). */
  Type.Object({ kind: Type.Literal('none') }, { additionalProperties: false }),
  Type.Object({ kind: Type.Literal('bearer'), token: TemplateString }, { additionalProperties: false }),
  Type.Object(
    { kind: Type.Literal('basic'), username: TemplateString, password: TemplateString },
    { additionalProperties: false },
  ),
  Type.Object(
    {
      kind: Type.Literal('oauth2'),
      /** Machine-to-machine sign-in: the tool's own client ID and secret buy a token at tokenUrl. */
      flow: Type.Literal('clientCredentials'),
      tokenUrl: EndpointUrl('token endpoint'),
      clientId: TemplateString,
      clientSecret: TemplateString,
      ...oauthRequestFields,
    },
    { additionalProperties: false },
  ),
  Type.Object(
    {
      kind: Type.Literal('oauth2'),
      /**
       * A person signs in once in their browser (authorization code with PKCE,
       * redirected to Toolbelt on 127.0.0.1); the tokens are kept as secrets
       * and refreshed without them.
       */
      flow: Type.Literal('authorizationCode'),
      authorizationUrl: EndpointUrl('authorization endpoint'),
      tokenUrl: EndpointUrl('token endpoint'),
      clientId: TemplateString,
      /** Public clients (PKCE only) have none. */
      clientSecret: Type.Optional(TemplateString),
      /** The loopback port registered with the provider (http://127.0.0.1:PORT/callback); any free port when absent. */
      redirectPort: Type.Optional(Type.Integer({ minimum: 1024, maximum: 65535 })),
      ...oauthRequestFields,
    },
    { additionalProperties: false },
  ),
  Type.Object(
    {
      kind: Type.Literal('hmac'),
      /** The signing key: a secret. */
      secret: TemplateString,
      /** What is signed: text with {method}, {path}, {query}, {host}, {timestamp}, {bodyHash} (SHA-256, hex) and {body}. */
      canonical: Type.String({ minLength: 1, maxLength: 2_000, description: 'Text with {method}, {path}, {query}, {host}, {timestamp}, {bodyHash} and {body}' }),
      header: Type.String({ pattern: HEADER_NAME_PATTERN, hint: 'A header name uses letters, digits and "-", without spaces.' }),
      encoding: Type.Union([Type.Literal('hex'), Type.Literal('base64')]),
      /** Before the signature in its header: `sha256=` for GitHub-style webhooks. */
      prefix: Type.Optional(Type.String({ maxLength: 64 })),
      /** A header that carries {timestamp}, so the server can check the signature's age. */
      timestampHeader: Type.Optional(Type.String({ pattern: HEADER_NAME_PATTERN, hint: 'A header name uses letters, digits and "-", without spaces.' })),
      timestampFormat: Type.Optional(Type.Union([Type.Literal('unix'), Type.Literal('unix-ms'), Type.Literal('iso')])),
    },
    { additionalProperties: false },
  ),
  Type.Object(
    {
      kind: Type.Literal('apiKey'),
      location: Type.Union([Type.Literal('header'), Type.Literal('query')]),
      name: Type.String({ minLength: 1 }),
      value: TemplateString,
    },
    { additionalProperties: false },
  ),
]);

export const RetrySchema = Type.Object(
  {
    maxAttempts: Type.Integer({ minimum: 1, maximum: 10 }),
    backoff: Type.Optional(Type.Union([Type.Literal('none'), Type.Literal('constant'), Type.Literal('exponential')])),
    initialDelayMs: Type.Optional(Type.Integer({ minimum: 0, maximum: 60_000 })),
    maxDelayMs: Type.Optional(Type.Integer({ minimum: 0, maximum: 300_000 })),
    jitter: Type.Optional(Type.Boolean()),
    retryOnStatus: Type.Optional(Type.Array(Type.Integer({ minimum: 100, maximum: 599 }), { uniqueItems: true })),
    retryOnNetworkErrors: Type.Optional(Type.Boolean()),
    allowUnsafe: Type.Optional(Type.Boolean({ description: 'Also retry POST and PATCH, which may not be idempotent' })),
  },
  { additionalProperties: false },
);

export const RateLimitSchema = Type.Object(
  {
    maxCallsPerMinute: Type.Optional(Type.Integer({ minimum: 1 })),
    maxCallsPerSecond: Type.Optional(Type.Integer({ minimum: 1 })),
    burst: Type.Optional(Type.Integer({ minimum: 1 })),
  },
  { additionalProperties: false, minProperties: 1 },
);

const HeadersSchema = Type.Record(Type.String({ pattern: HEADER_NAME_PATTERN, hint: 'A header name uses letters, digits and "-", without spaces.' }), TemplateString);

/**
 * What every HTTP tool of a bundle shares: where the API is, how to sign in,
 * headers sent with every call, the hosts its tools may reach besides the
 * global list, and a default timeout. A tool's own settings win.
 */
export const BundleHttpSchema = Type.Object(
  {
    baseUrl: Type.Optional(
      Type.String({
        pattern: '^https?://[^/?#]+',
        maxLength: 2048,
        description: 'Where relative urlTemplates start: https://api.example.com/v1',
        hint: 'Start the base URL with http:// or https:// and a host, for example https://api.example.com/v1.',
      }),
    ),
    auth: Type.Optional(HttpAuthSchema),
    headers: Type.Optional(HeadersSchema),
    allowedHosts: Type.Optional(Type.Array(AllowedHostSchema, { uniqueItems: true, maxItems: 100 })),
    timeoutMs: Type.Optional(Type.Integer({ minimum: 1, maximum: 600_000 })),
    /**
     * An answer its tool's outputSchema refuses: `fail`s the call (the default), or is taken with a `warn`ing that
     * says what does not match (for large public APIs, whose answers drift from their descriptions).
     */
    outputMismatch: Type.Optional(Type.Union([Type.Literal('fail'), Type.Literal('warn')])),
  },
  { additionalProperties: false },
);
export type BundleHttp = Static<typeof BundleHttpSchema>;

export const PARAMETER_STYLES = ['form', 'spaceDelimited', 'pipeDelimited', 'deepObject', 'simple', 'label', 'matrix'] as const;

/** OpenAPI's serialisation of one parameter: its style, whether lists and objects explode, and its name where the style writes it. */
export const ParameterStyleRuleSchema = Type.Object(
  {
    style: Type.Union(PARAMETER_STYLES.map((style) => Type.Literal(style))),
    explode: Type.Optional(Type.Boolean()),
    /** The parameter's name for a path segment in matrix style (`;name=…`); a query's or cookie's is its key. */
    name: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
  },
  { additionalProperties: false },
);
export type ParameterStyleRule = Static<typeof ParameterStyleRuleSchema>;

const COOKIE_NAME_PATTERN = "^[!#$%&'*+.^_`|~0-9A-Za-z-]+$";

/** The declarative HTTP tool. The execution issue gives each field its behaviour. */
export const HttpImplSchema = Type.Object(
  {
    method: HttpMethodSchema,
    urlTemplate: Type.String({
      pattern: '^(?:https?://|/)',
      description: "Starts with http:// or https://, or with / to go on from the bundle's baseUrl",
      hint: "Start the URL with http:// or https://, or with / to go on from the bundle's base URL.",
    }),
    query: Type.Optional(Type.Record(Type.String(), Type.Union([Scalar, Type.Array(Scalar)]))),
    queryEncoding: Type.Optional(Type.Union([Type.Literal('repeat'), Type.Literal('brackets'), Type.Literal('csv')])),
    headers: Type.Optional(HeadersSchema),
    /** Cookies sent in one Cookie header, each value a template. */
    cookies: Type.Optional(Type.Record(Type.String({ pattern: COOKIE_NAME_PATTERN, hint: 'A cookie name uses letters, digits and "-", without spaces.' }), TemplateString, { maxProperties: 100 })),
    /**
     * How a list or object argument is written where it goes, by argument name: OpenAPI's style and explode for the
     * query parameter, cookie, path segment or header it fills. Without one, a query list follows queryEncoding and
     * anything else that is not text is written as JSON.
     */
    styles: Type.Optional(Type.Record(Type.String({ minLength: 1, maxLength: 128 }), ParameterStyleRuleSchema, { maxProperties: 500 })),
    body: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
    bodyTemplate: Type.Optional(TemplateString),
    multipart: Type.Optional(Type.Boolean()),
    auth: Type.Optional(HttpAuthSchema),
    timeoutMs: Type.Optional(Type.Integer({ minimum: 1, maximum: 600_000 })),
    retry: Type.Optional(RetrySchema),
    rateLimit: Type.Optional(RateLimitSchema),
    successCodes: Type.Optional(Type.Array(Type.Integer({ minimum: 100, maximum: 599 }), { minItems: 1, uniqueItems: true })),
    // sse: the answer is an event stream (text/event-stream), read as it comes; the value is the list of its events' data.
    responseEncoding: Type.Optional(Type.Union([Type.Literal('json'), Type.Literal('text'), Type.Literal('sse')])),
    extractExpr: Type.Optional(Type.String({ minLength: 1 })),
    errorMode: Type.Optional(Type.Union([Type.Literal('fail'), Type.Literal('empty')])),
    limits: Type.Optional(
      Type.Object(
        {
          maxRequestBytes: Type.Optional(Type.Integer({ minimum: 1 })),
          maxResponseBytes: Type.Optional(Type.Integer({ minimum: 1 })),
          /** An event stream that sends no event for this long ends there (default 30 s). */
          idleTimeoutMs: Type.Optional(Type.Integer({ minimum: 1, maximum: 600_000 })),
        },
        { additionalProperties: false },
      ),
    ),
    logging: Type.Optional(Type.Union([Type.Literal('debug'), Type.Literal('info'), Type.Literal('quiet')])),
  },
  { additionalProperties: false },
);

export type HttpImpl = Static<typeof HttpImplSchema>;

/** Methods that carry no body: a form of theirs is sent in the query string, as an HTML form with that method is. */
export const QUERY_FORM_METHODS: ReadonlySet<string> = new Set(['GET', 'DELETE']);

/** Whether the tool's own headers say its `body` is sent form-encoded (multipart is not). */
/**
 * Whether the tool sends a body its method cannot carry: a GET's JSON or text body (a form of a GET goes in its
 * query). A DELETE may carry a JSON body (DigitalOcean's take one); its form goes in the query too.
 */
export function sendsBodyNotCarried(impl: Pick<HttpImpl, 'method' | 'body' | 'bodyTemplate' | 'headers' | 'multipart'>): boolean {
  return impl.method === 'GET' && (impl.body !== undefined || impl.bodyTemplate !== undefined) && !declaresFormBody(impl);
}

export function declaresFormBody(impl: Pick<HttpImpl, 'body' | 'headers' | 'multipart'>): boolean {
  if (impl.body === undefined || impl.multipart) return false;
  return Object.entries(impl.headers ?? {}).some(([name, value]) => name.toLowerCase() === 'content-type' && /x-www-form-urlencoded/i.test(String(value)));
}

export const LocalImplSchema = Type.Object(
  { func: Type.String({ minLength: 1, maxLength: 128, pattern: '^[A-Za-z][A-Za-z0-9_.-]*$', hint: 'Name a local function that ships with Toolbelt, for example core.calculate.' }) },
  { additionalProperties: false },
);

export type LocalImpl = Static<typeof LocalImplSchema>;

/**
 * What an MCP tool says of its app (MCP Apps, `_meta.ui`): the `ui://` resource the host shows with its calls, and
 * who may call it: `["app"]` is for its app only and never offered to a model; absent is both.
 */
export const McpToolUiSchema = Type.Object(
  {
    resourceUri: Type.Optional(Type.String({ pattern: '^ui://', maxLength: 2048 })),
    visibility: Type.Optional(Type.Array(Type.Union([Type.Literal('model'), Type.Literal('app')]), { maxItems: 2 })),
  },
  { additionalProperties: false },
);

export type McpToolUi = Static<typeof McpToolUiSchema>;

/** A tool of an MCP server: which server, and the tool's name there. Such tools come from the server, never from files. */
export const McpImplSchema = Type.Object(
  { server: Type.String({ minLength: 1, maxLength: 64 }), tool: Type.String({ minLength: 1, maxLength: 128 }), ui: Type.Optional(McpToolUiSchema) },
  { additionalProperties: false },
);

export type McpImpl = Static<typeof McpImplSchema>;

/** Whether a model may be offered this tool: all but an MCP tool its server keeps for its app (`visibility: ["app"]`). */
export function isForModels(tool: { type: string; impl: unknown }): boolean {
  if (tool.type !== 'mcp') return true;
  const visibility = (tool.impl as McpImpl).ui?.visibility;
  return !visibility || visibility.includes('model');
}

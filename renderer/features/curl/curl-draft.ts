import type { ParsedCurl } from './curl-import.js';
import { withSecretRefs } from './curl-import.js';
import { argumentName, secretName, uniqueName } from '../../../shared/tools/import-names.js';
import { base64Text } from '../../components/base64.js';
import type { HttpImpl } from '../../../shared/schemas/http-impl.js';

/** A value of the request a person may turn into an argument. */
export interface CurlCandidate {
  id: string;
  where: 'query' | 'body' | 'form' | 'path';
  name: string;
  value: unknown;
}

export interface CurlDraft {
  impl: HttpImpl;
  argSchema: { type: 'object'; properties: Record<string, unknown>; required?: string[] };
  /** Secrets the draft refers to: with the value found in the command (to be saved), or without (an environment variable of the person's). */
  secrets: { name: string; value?: string; found: string }[];
}

const SECRET_HEADER = /api[-_]?key|token|secret|signature|password|^auth|cookie/i;
const SECRET_QUERY = /^(api[-_]?key|apikey|key|token|access[-_]?token|secret|client[-_]?secret|signature|sig|password|auth)$/i;
const ID_SEGMENT = /\d|^[0-9a-f]{8}-[0-9a-f]{4}-/i;

/** Values that may become arguments: query parameters, fields of a JSON or form body, path segments that look like IDs. */
export function argumentCandidates(parsed: ParsedCurl): CurlCandidate[] {
  const candidates: CurlCandidate[] = [];
  const path = new URL(parsed.url.replace(/[\uE000\uE001]/g, '')).pathname.split('/');
  path.forEach((segment, index) => {
    if (segment && ID_SEGMENT.test(segment)) candidates.push({ id: `path:${index}`, where: 'path', name: path[index - 1] ? `${path[index - 1]}_id` : 'id', value: decodeURIComponent(segment) });
  });
  parsed.query.forEach(([name, value], index) => {
    if (!SECRET_QUERY.test(name)) candidates.push({ id: `query:${index}`, where: 'query', name, value });
  });
  const body = parsed.body;
  if (body?.kind === 'json' && body.value && typeof body.value === 'object' && !Array.isArray(body.value)) {
    for (const [name, value] of Object.entries(body.value)) candidates.push({ id: `body:${name}`, where: 'body', name, value });
  } else if (body?.kind === 'form' || body?.kind === 'multipart') {
    body.fields.forEach(([name, value], index) => candidates.push({ id: `form:${index}`, where: 'form', name, value }));
  }
  return candidates;
}

function schemaFor(value: unknown): Record<string, unknown> {
  if (typeof value === 'number') return { type: Number.isInteger(value) ? 'integer' : 'number', examples: [value] };
  if (typeof value === 'boolean') return { type: 'boolean', examples: [value] };
  if (Array.isArray(value)) return { type: 'array', examples: [value] };
  if (value && typeof value === 'object') return { type: 'object', examples: [value] };
  return { type: 'string', ...(value !== '' ? { examples: [value] } : {}) };
}

/** The host's own name for secret names: api.github.com → GITHUB, 127.0.0.1 → LOCAL. */
function hostWord(url: string): string {
  const host = new URL(url.replace(/[\uE000\uE001]/g, '')).hostname;
  // An address (127.0.0.1, [::1]) or localhost names nothing: such secrets are LOCAL_….
  if (/^[\d.]+$|^\[|^localhost$/i.test(host)) return 'LOCAL';
  const labels = host.split('.');
  return (labels.length >= 2 ? labels[labels.length - 2]! : labels[0]!) || 'API';
}

/**
 * The HTTP tool a cURL command becomes: its URL, query, headers and body,
 * with the values the person chose as arguments (`${name}`), credentials
 * moved to secrets (Authorization, API keys, `-u`), and `$VAR`s as the
 * secrets of those names. Nothing secret stays in the tool.
 */
export function draftFromCurl(parsed: ParsedCurl, chosen: ReadonlySet<string>): CurlDraft {
  const prefix = hostWord(parsed.url);
  const secrets: CurlDraft['secrets'] = [];
  const secretNames = new Set<string>();
  const keep = (what: string, value: string, found: string): string => {
    const name = uniqueName(secretName(prefix, what), secretNames, 128, '_');
    secrets.push({ name, value, found });
    return `\${secret.${name}}`;
  };
  /** A value as template text: $VARs become their secrets, named in the list. */
  const text = (value: string, found: string) => {
    const { text: replaced, names } = withSecretRefs(value);
    for (const name of names) {
      if (!secrets.some((secret) => secret.name === name)) secrets.push({ name, found });
      secretNames.add(name);
    }
    return replaced;
  };
  const properties: Record<string, unknown> = {};
  const argumentNames = new Set<string>();
  const argument = (candidate: CurlCandidate) => {
    const name = uniqueName(argumentName(candidate.name), argumentNames, 128, '_');
    properties[name] = { ...schemaFor(candidate.value), description: `${candidate.where === 'path' ? 'Path segment' : candidate.where === 'query' ? 'Query parameter' : 'Field'} ${candidate.name}` };
    return `\${${name}}`;
  };
  const candidates = new Map(argumentCandidates(parsed).map((candidate) => [candidate.id, candidate]));
  const isChosen = (id: string) => chosen.has(id) && candidates.has(id);

  const url = new URL(parsed.url.replace(/[\uE000\uE001]/g, ''));
  // The path as typed, so a $VAR in it ("/Accounts/$TWILIO_ACCOUNT_SID/Messages.json") becomes its secret, not text.
  const typed = parsed.url.replace(/^https?:\/\/[^/?#]*/i, '').replace(/[?#].*$/s, '').split('/');
  const segments = url.pathname.split('/').map((segment, index) => {
    if (isChosen(`path:${index}`)) return argument(candidates.get(`path:${index}`)!);
    const asTyped = typed.length === url.pathname.split('/').length ? typed[index] : undefined;
    return asTyped?.includes('\uE000') ? text(asTyped, 'the URL path') : segment;
  });
  const impl: HttpImpl = { method: parsed.method as HttpImpl['method'], urlTemplate: text(parsed.url.replace(/^(https?:\/\/[^/?#]*).*$/s, '$1'), 'the URL') + segments.join('/') };

  parsed.query.forEach(([name, value], index) => {
    const template = SECRET_QUERY.test(name) && !value.includes('\uE000') ? keep(name, value, `query parameter ${name}`) : isChosen(`query:${index}`) ? argument(candidates.get(`query:${index}`)!) : text(value, `query parameter ${name}`);
    const query = (impl.query ??= {});
    const existing = query[name];
    query[name] = existing === undefined ? template : Array.isArray(existing) ? [...existing, template] : [existing, template];
  });

  for (const [name, value] of parsed.headers) {
    if (/^authorization$/i.test(name) && !impl.auth) {
      const bearer = /^Bearer\s+(.+)$/i.exec(value);
      if (bearer) {
        impl.auth = { kind: 'bearer', token: bearer[1]!.includes('\uE000') ? text(bearer[1]!, 'the Authorization header') : keep('token', bearer[1]!, 'the Authorization header') };
        continue;
      }
      const basic = /^Basic\s+([A-Za-z0-9+/=]+)$/i.exec(value);
      const decoded = basic ? atobText(basic[1]!) : null;
      if (decoded?.includes(':')) {
        const colon = decoded.indexOf(':');
        impl.auth = { kind: 'basic', username: decoded.slice(0, colon), password: keep('password', decoded.slice(colon + 1), 'the Authorization header') };
        continue;
      }
    }
    const template = SECRET_HEADER.test(name) && !value.includes('\uE000') ? keep(name, value, `header ${name}`) : text(value, `header ${name}`);
    (impl.headers ??= {})[name] = template;
  }
  if (parsed.user !== undefined) {
    const colon = parsed.user.indexOf(':');
    const username = colon === -1 ? parsed.user : parsed.user.slice(0, colon);
    const password = colon === -1 ? '' : parsed.user.slice(colon + 1);
    if (password === '' && !username.includes('\uE000')) {
      // `-u sk_test_…:` (Stripe's docs): the key is the user name and the password is empty. The key is the secret.
      impl.auth = { kind: 'basic', username: keep('key', username, 'the user name of -u'), password: '' };
    } else {
      impl.auth = { kind: 'basic', username: text(username, 'the user name'), password: password === '' ? '' : password.includes('\uE000') ? text(password, 'the password') : keep('password', password, 'the password of -u') };
    }
  }

  const body = parsed.body;
  if (body?.kind === 'json') {
    if (body.value && typeof body.value === 'object' && !Array.isArray(body.value)) {
      impl.body = Object.fromEntries(Object.entries(body.value).map(([name, value]) => [name, isChosen(`body:${name}`) ? argument(candidates.get(`body:${name}`)!) : value]));
    } else {
      impl.bodyTemplate = JSON.stringify(body.value);
    }
    if (!parsed.headers.some(([name]) => /^content-type$/i.test(name))) (impl.headers ??= {})['Content-Type'] = 'application/json';
  } else if (body?.kind === 'multipart') {
    impl.multipart = true;
    impl.body = Object.fromEntries(body.fields.map(([name, value], index) => [name, isChosen(`form:${index}`) ? argument(candidates.get(`form:${index}`)!) : text(value, `form field ${name}`)]));
  } else if (body?.kind === 'form') {
    impl.bodyTemplate = body.fields.map(([name, value], index) => `${encodeURIComponent(name)}=${isChosen(`form:${index}`) ? argument(candidates.get(`form:${index}`)!) : formValue(text(value, `form field ${name}`))}`).join('&');
    if (!parsed.headers.some(([name]) => /^content-type$/i.test(name))) (impl.headers ??= {})['Content-Type'] = 'application/x-www-form-urlencoded';
  } else if (body?.kind === 'text') {
    impl.bodyTemplate = text(body.text, 'the body');
  }
  if (parsed.timeoutMs) impl.timeoutMs = Math.min(600_000, parsed.timeoutMs);
  if (parsed.retries) impl.retry = { maxAttempts: Math.min(10, parsed.retries + 1) };
  // A command that asks for an event stream (a model's streamed answer, a log tail) gets one: read as it comes.
  if (parsed.headers.some(([name, value]) => /^accept$/i.test(name) && /text\/event-stream/i.test(value))) impl.responseEncoding = 'sse';
  const required = Object.keys(properties);
  return { impl, argSchema: { type: 'object', properties, ...(required.length ? { required } : {}) }, secrets };
}

/** A form value is URL-encoded, except a secret's placeholder, which the request fills (and encodes) itself. */
function formValue(value: string): string {
  return value.includes('${') ? value : encodeURIComponent(value);
}

function atobText(base64: string): string | null {
  try {
    return base64Text(base64);
  } catch {
    return null;
  }
}

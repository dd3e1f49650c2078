import { QUERY_FORM_METHODS, type HttpImpl } from '../../../shared/schemas/http-impl.js';
import { ToolbeltError } from '../../../shared/errors.js';
import { parseTemplate, placeholderTarget } from '../../../shared/tools/templates.js';
import { InvokeFailure } from '../invoke-error.js';
import { hmacHeaders } from './hmac.js';
import { styledPairs, styledText } from '../../../shared/tools/parameter-style.js';
import { asText, isAbsentArgument, renderBody, renderText, renderTextWith, renderValue, soleArgument, styleOf, type RenderScope } from './render.js';

export interface BuiltRequest {
  method: string;
  url: URL;
  headers: Headers;
  body: string | FormData | undefined;
  /** Header names whose values came from secrets or auth: always masked in traces. */
  sensitiveHeaders: Set<string>;
  /** Credentials derived from secrets (Basic), masked like the secrets themselves. */
  derivedSecrets: string[];
}

const HOST_VALUE = /^[A-Za-z0-9.-]+$/;

/**
 * The request an HTTP tool makes for these arguments. Every inserted value
 * is encoded for where it lands: path and query by URL encoding, host names
 * checked, header values refused with CR or LF, JSON bodies by JSON.
 */
export function buildRequest(impl: HttpImpl, scope: RenderScope): BuiltRequest {
  const url = buildUrl(impl, scope);
  const headers = new Headers();
  const sensitiveHeaders = new Set<string>();
  const derivedSecrets: string[] = [];

  for (const [name, template] of Object.entries(impl.headers ?? {})) {
    if (isAbsentArgument(template, scope)) continue;
    const before = scope.usedSecrets.size;
    const value = renderTextWith(template, scope, `header ${name}`, (argument, placeholder) => {
      const rule = styleOf(impl.styles, placeholder, scope);
      return rule ? styledText(name, argument, rule, (text) => text) : asText(argument);
    });
    headers.set(name, headerSafe(value, `The value of header ${name}`, usesArguments(template, scope)));
    if (scope.usedSecrets.size > before || template.includes('${secret.')) sensitiveHeaders.add(name.toLowerCase());
  }
  const cookies = Object.entries(impl.cookies ?? {}).filter(([, template]) => !isAbsentArgument(template, scope));
  if (cookies.length > 0) {
    const before = scope.usedSecrets.size;
    const text = cookies.flatMap(([name, template]) => parameterPairs(name, template, impl, scope, `cookie ${name}`, encodeForCookie)).join('; ');
    const given = headers.get('cookie');
    headers.set('Cookie', headerSafe(given ? `${given}; ${text}` : text, 'The Cookie header', cookies.some(([, template]) => usesArguments(template, scope))));
    if (scope.usedSecrets.size > before || cookies.some(([, template]) => template.includes('${secret.'))) sensitiveHeaders.add('cookie');
  }

  const auth = impl.auth;
  if (auth?.kind === 'bearer') {
    headers.set('Authorization', `Bearer ${headerSafe(renderText(auth.token, scope, 'auth.token'), 'auth.token', usesArguments(auth.token, scope))}`);
    sensitiveHeaders.add('authorization');
  } else if (auth?.kind === 'basic') {
    const credentials = `${renderText(auth.username, scope, 'auth.username')}:${renderText(auth.password, scope, 'auth.password')}`;
    const encoded = Buffer.from(credentials, 'utf8').toString('base64');
    headers.set('Authorization', `Basic ${encoded}`);
    sensitiveHeaders.add('authorization');
    derivedSecrets.push(encoded);
  } else if (auth?.kind === 'oauth2' && scope.oauthToken !== undefined) {
    headers.set('Authorization', `Bearer ${headerSafe(scope.oauthToken, 'The OAuth token', false)}`);
    sensitiveHeaders.add('authorization');
    derivedSecrets.push(scope.oauthToken);
  } else if (auth?.kind === 'apiKey') {
    const value = renderText(auth.value, scope, 'auth.value');
    if (auth.location === 'header') {
      headers.set(auth.name, headerSafe(value, 'auth.value', usesArguments(auth.value, scope)));
      sensitiveHeaders.add(auth.name.toLowerCase());
    } else {
      // The key replaces a parameter of its name the URL already has (a template's placeholder for it, say): sent once.
      setInQuery(url, auth.name, formPair(auth.name, value));
    }
    derivedSecrets.push(value);
  }

  let body: string | FormData | undefined;
  if (impl.multipart && impl.body) {
    body = multipartBody(renderBody(impl.body, scope, 'body') as Record<string, unknown>);
  } else if (impl.body !== undefined && /x-www-form-urlencoded/i.test(headers.get('content-type') ?? '')) {
    // A form: the fields given, nested values in brackets (a[b]=1, a[]=x), as form-encoded APIs (Stripe, Slack, Twilio) read them.
    const form = formBody(renderBody(impl.body, scope, 'body') as Record<string, unknown>);
    if (QUERY_FORM_METHODS.has(impl.method)) {
      // A GET or DELETE carries no body: its form goes in the query, as an HTML form with that method sends it.
      if (form) appendToQuery(url, [form]);
      headers.delete('content-type');
    } else body = form;
  } else if (impl.body !== undefined) {
    body = JSON.stringify(renderBody(impl.body, scope, 'body'));
    if (!headers.has('content-type')) headers.set('Content-Type', 'application/json');
  } else if (impl.bodyTemplate !== undefined) {
    const contentType = headers.get('content-type') ?? '';
    const looksJson = /json/i.test(contentType) || /^\s*[[{]/.test(impl.bodyTemplate);
    const sole = looksJson ? soleArgument(impl.bodyTemplate, scope) : null;
    const encode = looksJson
      ? (value: string) => JSON.stringify(value).slice(1, -1)
      : /x-www-form-urlencoded/i.test(contentType)
        ? encodeForUrl
        : (value: string) => value;
    // A JSON body that is one argument is that argument, sent as JSON (an object stays an object).
    body = sole ? JSON.stringify(renderValue(impl.bodyTemplate, scope, 'bodyTemplate')) : renderText(impl.bodyTemplate, scope, 'bodyTemplate', encode);
    if (!headers.has('content-type')) headers.set('Content-Type', looksJson ? 'application/json' : 'text/plain; charset=utf-8');
  }

  if (auth?.kind === 'hmac') {
    const key = renderText(auth.secret, scope, 'auth.secret');
    for (const [name, value] of hmacHeaders(auth, key, { method: impl.method, url, body }, scope.now ?? Date.now())) {
      headers.set(name, headerSafe(value, `The header ${name}`, false));
      sensitiveHeaders.add(name.toLowerCase());
    }
  }

  if (typeof body === 'string' && impl.limits?.maxRequestBytes !== undefined) {
    const size = Buffer.byteLength(body);
    if (size > impl.limits.maxRequestBytes) {
      throw new InvokeFailure('request_too_large', `The request body is ${size} bytes, over the tool's limit of ${impl.limits.maxRequestBytes}; it was not sent.`);
    }
  }
  return { method: impl.method, url, headers, body, sensitiveHeaders, derivedSecrets };
}

/**
 * A header value must be one line of Latin-1 (HTTP carries header bytes,
 * and fetch refuses anything past U+00FF). The message names the character
 * by code point only: the value may hold a secret.
 */
function headerSafe(value: string, where: string, fromArguments: boolean): string {
  if (/[\r\n\0]/.test(value)) {
    throw refusal(fromArguments, `${where} contains a line break, which would split the request; it was not sent.`);
  }
  const wide = /[^\p{ASCII}\u0080-\u00ff]/u.exec(value);
  if (wide) {
    const codePoint = `U+${wide[0].codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;
    throw refusal(
      fromArguments,
      `${where} contains ${codePoint}, which HTTP headers cannot carry (they take Latin-1 only); the request was not sent. Send such text in the query or the body instead.`,
    );
  }
  return value;
}

/** A value the arguments put there is the caller's to fix (invalid_args, 400); one from the tool's own text or a secret is the tool's. */
function refusal(fromArguments: boolean, message: string): Error {
  return fromArguments ? new ToolbeltError('invalid_args', message) : new InvokeFailure('invalid_request', message);
}

function usesArguments(template: string, scope: RenderScope): boolean {
  const parsed = parseTemplate(template);
  return parsed.ok && parsed.parts.some((part) => part.kind === 'placeholder' && placeholderTarget(part, scope.argumentNames) === 'args');
}

/**
 * A path placeholder fills exactly its own segment: a value "." or ".."
 * would make the URL climb out of it (`/users/../admin`), and URL parsers
 * treat `%2E%2E` the same way, so such a segment is refused.
 */
function pathSegmentsSafe(renderedPath: string, templatePath: string): void {
  const rendered = renderedPath.split('/');
  const templated = templatePath.split('/');
  for (const [index, segment] of rendered.entries()) {
    if (!templated[index]?.includes('${')) continue;
    if (/^(?:\.|%2e){1,2}$/i.test(segment)) {
      throw new ToolbeltError('invalid_args', `A path argument made the URL segment "${decodeURIComponent(segment)}", which would leave its place in the URL; the request was not sent.`);
    }
  }
}

/** URL encoding of an inserted value; a lone surrogate (not text) cannot be encoded. */
function encodeForUrl(value: string): string {
  if (!value.isWellFormed()) throw new InvokeFailure('invalid_request', 'A value for the URL contains a lone UTF-16 surrogate, which is not text; the request was not sent.');
  return encodeURIComponent(value);
}

/**
 * A cookie's value keeps what a cookie may hold as it is (a token or a signed value stays readable to servers that
 * do not decode cookies) and percent-encodes the rest: `;` `,` space, quotes, backslashes, `%` and anything past ASCII.
 */
function encodeForCookie(value: string): string {
  if (!value.isWellFormed()) throw new InvokeFailure('invalid_request', 'A value for a cookie contains a lone UTF-16 surrogate, which is not text; the request was not sent.');
  return value.replace(/[^\x21\x23-\x24\x26-\x2B\x2D-\x3A\x3C-\x5B\x5D-\x7E]+/gu, (run) => encodeURIComponent(run));
}

function buildUrl(impl: HttpImpl, scope: RenderScope): URL {
  const match = /^(https?:\/\/)([^/?#]*)(.*)$/s.exec(impl.urlTemplate);
  if (!match) throw new InvokeFailure('invalid_request', `The URL template ${impl.urlTemplate} does not start with http:// or https://.`);
  const [, scheme, authorityTemplate, restTemplate] = match;
  const authority = renderText(authorityTemplate!, scope, 'the URL host', (value) => {
    if (!HOST_VALUE.test(value)) throw new InvokeFailure('invalid_request', `"${value}" cannot be part of a host name.`);
    return value;
  });
  // encodeURIComponent also encodes "/", "?" and "#": a value stays inside its segment.
  const pathEnd = restTemplate!.search(/[?#]/);
  const pathTemplate = pathEnd === -1 ? restTemplate! : restTemplate!.slice(0, pathEnd);
  const renderedPath = renderTextWith(pathTemplate, scope, 'the URL', (argument, placeholder) => {
    const rule = styleOf(impl.styles, placeholder, scope);
    return rule ? styledText(rule.name ?? placeholder.name, argument, rule, encodeForUrl) : encodeForUrl(asText(argument));
  });
  pathSegmentsSafe(renderedPath, pathTemplate);
  const rest = renderedPath + (pathEnd === -1 ? '' : renderText(restTemplate!.slice(pathEnd), scope, 'the URL', encodeForUrl));
  let url: URL;
  try {
    url = new URL(`${scheme}${authority}${rest}`);
  } catch {
    throw new InvokeFailure('invalid_request', `The URL ${scheme}${authority}${rest} is not valid.`);
  }
  const pairs: string[] = [];
  for (const [name, template] of Object.entries(impl.query ?? {})) {
    if (isAbsentArgument(template, scope)) continue;
    // An argument with a style rule is written as OpenAPI writes it (the template looked up once).
    const rule = typeof template === 'string' ? soleStyle(template, impl, scope) : undefined;
    if (rule) {
      pairs.push(...styledPairs(name, renderValue(template as string, scope, `query ${name}`), rule, encodeForUrl));
      continue;
    }
    let isList = Array.isArray(template);
    const rendered = (isList ? (template as unknown[]) : [template]).flatMap((item) => {
      const value = typeof item === 'string' ? renderValue(item, scope, `query ${name}`) : item;
      if (Array.isArray(value)) isList = true;
      return Array.isArray(value) ? (value as unknown[]) : [value];
    });
    pairs.push(...listPairs(name, rendered.map(asText), impl.queryEncoding ?? 'repeat', isList));
  }
  appendToQuery(url, pairs);
  return url;
}

/** The style rule of the argument a template is exactly, if any. */
function soleStyle(template: string, impl: HttpImpl, scope: RenderScope) {
  const sole = soleArgument(template, scope);
  return sole ? styleOf(impl.styles, sole, scope) : undefined;
}

/**
 * A query parameter or cookie as encoded `name=value` pairs: an argument with a style rule as OpenAPI writes it
 * (parameter-style.ts), anything else as one pair of its text.
 */
function parameterPairs(name: string, template: string, impl: HttpImpl, scope: RenderScope, where: string, encode: (text: string) => string): string[] {
  const rule = soleStyle(template, impl, scope);
  if (rule) return styledPairs(name, renderValue(template, scope, where), rule, encode);
  return [`${encode(name)}=${renderText(template, scope, where, encode)}`];
}

/** A query parameter written as a form writes it (`+` for a space), one or many. */
const formPair = (name: string, value: string) => new URLSearchParams([[name, value]]).toString();

function listPairs(name: string, values: string[], encoding: 'repeat' | 'brackets' | 'csv', isList: boolean): string[] {
  if (!isList) return [formPair(name, values[0] ?? '')];
  if (encoding === 'csv') return [formPair(name, values.join(','))];
  return values.map((value) => formPair(encoding === 'brackets' ? `${name}[]` : name, value));
}

/**
 * Pairs already encoded go on the query as they are: through searchParams they would be encoded again as a form
 * (the delimiters a style writes between values, `,` `|` `[` `]`, turned into `%2C` and the like).
 */
function appendToQuery(url: URL, pairs: string[]): void {
  if (pairs.length === 0) return;
  url.search = url.search.length > 1 ? `${url.search}&${pairs.join('&')}` : `?${pairs.join('&')}`;
}

/** Like appendToQuery, after taking out the pairs of that name already there; the others are left as they were written. */
function setInQuery(url: URL, name: string, pair: string): void {
  const nameOf = (part: string) => {
    const raw = part.split('=', 1)[0]!.replace(/\+/g, ' ');
    try {
      return decodeURIComponent(raw);
    } catch {
      return raw;
    }
  };
  const kept = url.search.slice(1).split('&').filter((part) => part !== '' && nameOf(part) !== name);
  url.search = `?${[...kept, pair].join('&')}`;
}

const MAX_FORM_DEPTH = 16;

function formBody(fields: Record<string, unknown>): string {
  const form = new URLSearchParams();
  const add = (name: string, value: unknown, depth: number): void => {
    if (value === undefined || value === null) return;
    if (depth > MAX_FORM_DEPTH) throw new InvokeFailure('invalid_request', `The form field ${name.slice(0, 200)} nests deeper than ${MAX_FORM_DEPTH} levels, more than a form can say. The request was not sent.`);
    if (Array.isArray(value)) for (const item of value) add(`${name}[]`, item, depth + 1);
    else if (typeof value === 'object') for (const [key, item] of Object.entries(value)) add(`${name}[${key}]`, item, depth + 1);
    else form.append(name, asText(value));
  };
  for (const [name, value] of Object.entries(fields)) add(name, value, 0);
  return form.toString();
}

function multipartBody(fields: Record<string, unknown>): FormData {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) {
    if (isFilePart(value)) {
      form.append(name, new Blob([Buffer.from(value.base64, 'base64')], { type: value.contentType }), value.filename);
    } else {
      form.append(name, asText(value));
    }
  }
  return form;
}

function isFilePart(value: unknown): value is { filename: string; contentType: string; base64: string } {
  return (
    !!value &&
    typeof value === 'object' &&
    typeof (value as { filename?: unknown }).filename === 'string' &&
    typeof (value as { base64?: unknown }).base64 === 'string'
  );
}

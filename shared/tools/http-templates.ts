import type { HttpImpl } from '../schemas/http-impl.js';

/** The fields of an auth that are templates (the rest are names and settings). */
export const AUTH_TEMPLATE_FIELDS = new Set(['token', 'username', 'password', 'value', 'secret', 'clientId', 'clientSecret']);

/** Every template string of an HTTP impl, with its JSON pointer. */
export function* templatesOf(impl: HttpImpl): Generator<{ path: string; template: string }> {
  yield { path: '/impl/urlTemplate', template: impl.urlTemplate };
  for (const [name, value] of Object.entries(impl.query ?? {})) {
    const values = Array.isArray(value) ? value : [value];
    for (const [index, item] of values.entries()) {
      if (typeof item === 'string') {
        yield { path: `/impl/query/${pointerEscape(name)}${Array.isArray(value) ? `/${index}` : ''}`, template: item };
      }
    }
  }
  for (const [name, value] of Object.entries(impl.headers ?? {})) {
    yield { path: `/impl/headers/${pointerEscape(name)}`, template: value };
  }
  for (const [name, value] of Object.entries(impl.cookies ?? {})) {
    yield { path: `/impl/cookies/${pointerEscape(name)}`, template: value };
  }
  if (impl.body) yield* leafTemplates(impl.body, '/impl/body');
  if (impl.bodyTemplate !== undefined) yield { path: '/impl/bodyTemplate', template: impl.bodyTemplate };
  if (impl.auth) {
    for (const [key, value] of Object.entries(impl.auth)) {
      if (AUTH_TEMPLATE_FIELDS.has(key) && typeof value === 'string') {
        yield { path: `/impl/auth/${key}`, template: value };
      }
    }
  }
}

function* leafTemplates(value: unknown, at: string): Generator<{ path: string; template: string }> {
  if (typeof value === 'string') yield { path: at, template: value };
  else if (Array.isArray(value)) for (const [index, item] of value.entries()) yield* leafTemplates(item, `${at}/${index}`);
  else if (value && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) yield* leafTemplates(item, `${at}/${pointerEscape(key)}`);
  }
}

export function pointerEscape(segment: string): string {
  return segment.replaceAll('~', '~0').replaceAll('/', '~1');
}


/** The same impl with every template passed through `rewrite`; everything else is shared, not copied. */
export function mapTemplates(impl: HttpImpl, rewrite: (template: string) => string): HttpImpl {
  const next: HttpImpl = { ...impl, urlTemplate: rewrite(impl.urlTemplate) };
  if (impl.query) {
    next.query = Object.fromEntries(
      Object.entries(impl.query).map(([name, value]) => [name, Array.isArray(value) ? value.map((item) => (typeof item === 'string' ? rewrite(item) : item)) : typeof value === 'string' ? rewrite(value) : value]),
    );
  }
  if (impl.headers) next.headers = mapValues(impl.headers, rewrite);
  if (impl.cookies) next.cookies = mapValues(impl.cookies, rewrite);
  if (impl.body) next.body = mapLeaves(impl.body, rewrite) as Record<string, unknown>;
  if (impl.bodyTemplate !== undefined) next.bodyTemplate = rewrite(impl.bodyTemplate);
  if (impl.auth) next.auth = mapAuthTemplates(impl.auth, rewrite);
  return next;
}

/** An auth with each of its template fields passed through `rewrite`. */
export function mapAuthTemplates<T extends object>(auth: T, rewrite: (template: string) => string): T {
  return Object.fromEntries(Object.entries(auth).map(([key, value]) => [key, AUTH_TEMPLATE_FIELDS.has(key) && typeof value === 'string' ? rewrite(value) : value])) as T;
}

function mapValues(record: Record<string, string>, rewrite: (template: string) => string): Record<string, string> {
  return Object.fromEntries(Object.entries(record).map(([key, value]) => [key, rewrite(value)]));
}

function mapLeaves(value: unknown, rewrite: (template: string) => string): unknown {
  if (typeof value === 'string') return rewrite(value);
  if (Array.isArray(value)) return value.map((item) => mapLeaves(item, rewrite));
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, mapLeaves(item, rewrite)]));
  return value;
}

import { methodHasBody, type OperationDefinition } from '../../shared/operation.js';

export interface HttpRequestPlan {
  method: string;
  path: string;
  body?: string;
}

/**
 * Turns an operation call into the HTTP request the browser host expects:
 * `:name` segments from params, the rest as query (GET, DELETE) or JSON body.
 * The inverse of the host's own mapping, both driven by the table.
 */
export function planHttpRequest(definition: OperationDefinition, params: Record<string, unknown>): HttpRequestPlan {
  const { method, path, bodyParam } = definition.http;
  const rest: Record<string, unknown> = { ...params };
  const filledPath = path
    .split('/')
    .map((segment) => {
      if (!segment.startsWith(':')) return segment;
      const name = segment.slice(1);
      const value = rest[name];
      delete rest[name];
      if (value === undefined || value === null || value === '') {
        throw new Error(`${definition.name} needs "${name}".`);
      }
      return encodeURIComponent(formatParam(value));
    })
    .join('/');

  if (methodHasBody(method)) {
    const body = bodyParam ? rest[bodyParam] : rest;
    return { method, path: filledPath, body: body === undefined ? undefined : JSON.stringify(body) };
  }
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(rest)) {
    if (value === undefined || value === null) continue;
    query.set(key, Array.isArray(value) ? value.map(formatParam).join(',') : formatParam(value));
  }
  const search = query.toString();
  return { method, path: search ? `${filledPath}?${search}` : filledPath };
}

function formatParam(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value);
}

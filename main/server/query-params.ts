import type { TObject, TSchema } from '@sinclair/typebox';

/**
 * Query strings carry only text. Turn each value into the type the
 * operation's params schema declares, so the dispatcher validates the same
 * shapes whichever transport a call came through. Arrays are comma lists
 * (`bundleIDs=a,b`) or repeated keys; objects are JSON. Values that do not convert are passed
 * through as text and rejected by validation with a clear message.
 */
export function coerceQuery(schema: TObject, query: URLSearchParams): Record<string, unknown> {
  // Keys come from the request: `__proto__` or `constructor` must stay plain (unknown) keys.
  const result: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
  for (const key of new Set(query.keys())) {
    const values = query.getAll(key);
    const propertySchema = Object.hasOwn(schema.properties, key) ? schema.properties[key] : undefined;
    result[key] = propertySchema ? coerceValue(propertySchema, values) : values.at(-1);
  }
  return result;
}

function coerceValue(schema: TSchema, values: string[]): unknown {
  const type = (schema as { type?: unknown }).type;
  if (type === 'array') {
    const items = (schema as { items?: TSchema }).items;
    const parts = values.flatMap((value) => value.split(',')).filter((part) => part !== '');
    return items ? parts.map((part) => coerceScalar(items, part)) : parts;
  }
  return coerceScalar(schema, values.at(-1) ?? '');
}

function coerceScalar(schema: TSchema, value: string): unknown {
  const type = (schema as { type?: unknown }).type;
  if ((type === 'integer' || type === 'number') && value.trim() !== '') {
    const number = Number(value);
    return Number.isFinite(number) ? number : value;
  }
  if (type === 'boolean') {
    if (value === 'true' || value === '1') return true;
    if (value === 'false' || value === '0') return false;
  }
  // An object is sent as JSON (the window's client does so); text that is not JSON is left for validation to refuse.
  if (type === 'object') {
    try {
      return JSON.parse(value) as unknown;
    } catch {
      return value;
    }
  }
  return value;
}

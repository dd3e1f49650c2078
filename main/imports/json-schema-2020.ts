/**
 * Schemas of OpenAPI 3.0 and Swagger 2.0 are a dialect of JSON Schema draft
 * 4; tools take draft 2020-12. This turns one into the other: `nullable`
 * becomes a `null` type, boolean `exclusiveMinimum` a number, `example` an
 * `examples` list; OpenAPI-only keywords (xml, discriminator,
 * externalDocs…) are dropped; a `$ref` the parser left (a circular one)
 * becomes "any value", since a tool's schema stands alone. OpenAPI 3.1 is
 * 2020-12 already and only loses the OpenAPI-only keywords and refs.
 */
const OPENAPI_ONLY = new Set(['xml', 'discriminator', 'externalDocs', 'nullable', 'example', 'deprecated', 'readOnly', 'writeOnly', 'collectionFormat', 'allowEmptyValue', 'x-nullable']);
const MAX_DEPTH = 64;
/** Formats the tool validator knows (ajv-formats); any other is an annotation a validator would warn about, so it is left out. */
const KNOWN_FORMATS = new Set(
  'date time date-time iso-time iso-date-time duration uri uri-reference uri-template url email hostname ipv4 ipv6 regex uuid json-pointer json-pointer-uri-fragment relative-json-pointer byte int32 int64 float double password binary'.split(' '),
);

export function toJsonSchema2020(schema: unknown, dialect: 'openapi-3.0' | 'openapi-3.1' | 'swagger-2.0'): Record<string, unknown> {
  return convert(schema, dialect, 0, new WeakSet());
}

function convert(schema: unknown, dialect: string, depth: number, seen: WeakSet<object>): Record<string, unknown> {
  if (schema === true || schema === undefined) return {};
  if (schema === false) return { not: {} };
  if (!schema || typeof schema !== 'object' || Array.isArray(schema)) return {};
  // The parser shares one object for every use of a component: only a cycle (or an absurd depth) is cut.
  if (seen.has(schema) || depth > MAX_DEPTH) return { description: 'A nested value of the same shape (its schema refers to itself).' };
  seen.add(schema);
  try {
    const source = schema as Record<string, unknown>;
    if (typeof source.$ref === 'string') return { description: `A value described by ${source.$ref} in the API description.` };
    const out: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(source)) {
      if (OPENAPI_ONLY.has(key) || key.startsWith('x-')) continue;
      if (key === 'properties' || key === 'patternProperties' || key === '$defs' || key === 'definitions') {
        out[key] = mapValues(value, (item) => convert(item, dialect, depth + 1, seen));
      } else if (key === 'items' && Array.isArray(value)) {
        // Draft 4 tuples are 2020-12 prefixItems.
        out.prefixItems = value.map((item) => convert(item, dialect, depth + 1, seen));
      } else if (['items', 'additionalProperties', 'not', 'contains', 'propertyNames', 'if', 'then', 'else', 'unevaluatedProperties', 'unevaluatedItems'].includes(key)) {
        out[key] = typeof value === 'boolean' ? value : convert(value, dialect, depth + 1, seen);
      } else if (key === 'allOf' || key === 'anyOf' || key === 'oneOf' || key === 'prefixItems') {
        out[key] = Array.isArray(value) ? value.map((item) => convert(item, dialect, depth + 1, seen)) : value;
      } else if ((key === 'exclusiveMinimum' || key === 'exclusiveMaximum') && typeof value === 'boolean') {
        const bound = key === 'exclusiveMinimum' ? 'minimum' : 'maximum';
        if (value && typeof source[bound] === 'number') out[key] = source[bound];
      } else if ((key === 'minimum' || key === 'maximum') && source[key === 'minimum' ? 'exclusiveMinimum' : 'exclusiveMaximum'] === true) {
        // Said by exclusiveMinimum/Maximum above.
      } else if (key === 'format') {
        if (typeof value === 'string' && KNOWN_FORMATS.has(value)) out.format = value;
      } else {
        out[key] = value;
      }
    }
    if (source.type === 'file') out.type = 'string';
    if (dialect !== 'openapi-3.1' && source.example !== undefined && out.examples === undefined) out.examples = [source.example];
    if ((source.nullable === true || source['x-nullable'] === true) && out.type !== undefined) {
      const types = Array.isArray(out.type) ? (out.type as unknown[]) : [out.type];
      if (!types.includes('null')) out.type = [...types, 'null'];
    }
    return out;
  } finally {
    seen.delete(schema);
  }
}

function mapValues(value: unknown, map: (item: unknown) => unknown): unknown {
  if (!value || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, map(item)]));
}

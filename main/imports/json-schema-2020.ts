import { meantPattern } from './meant-pattern.js';

/**
 * Schemas of OpenAPI 3.0 and Swagger 2.0 are a dialect of JSON Schema draft
 * 4; tools take draft 2020-12. This turns one into the other: `nullable`
 * becomes a `null` type, boolean `exclusiveMinimum` a number, `example` an
 * `examples` list; OpenAPI-only keywords (xml, discriminator,
 * externalDocs…) are dropped; a `$ref` the parser left (a circular one)
 * becomes "any value", since a tool's schema stands alone. OpenAPI 3.1 is
 * 2020-12 already and only loses the OpenAPI-only keywords and refs.
 * Patterns are read as their authors meant them (meant-pattern.ts).
 */
const OPENAPI_ONLY = new Set(['xml', 'discriminator', 'externalDocs', 'nullable', 'example', 'deprecated', 'readOnly', 'writeOnly', 'collectionFormat', 'allowEmptyValue', 'x-nullable']);
const MAX_DEPTH = 64;
/** Formats the tool validator knows (ajv-formats); any other is an annotation a validator would warn about, so it is left out. */
const KNOWN_FORMATS = new Set(
  'date time date-time iso-time iso-date-time duration uri uri-reference uri-template url email hostname ipv4 ipv6 regex uuid json-pointer json-pointer-uri-fragment relative-json-pointer byte int32 int64 float double password binary'.split(' '),
);

/**
 * How many schema nodes one converted schema may hold, counted as written out.
 * The parser shares one object for every use of a component, so a description
 * of a few kilobytes can name a schema that doubles at every level (24 levels
 * are 16 million nodes); past this, a part becomes a note instead.
 */
export const MAX_SCHEMA_NODES = 20_000;

interface Conversion {
  dialect: string;
  /** Objects being converted now, on the path from the root: meeting one again is a cycle. */
  onPath: WeakSet<object>;
  /** Each shared schema is converted once per call. */
  converted: WeakMap<object, Record<string, unknown>>;
  /** Nodes of each converted schema as written out (shared parts counted every time they appear). */
  sizes: WeakMap<object, number>;
  /** Nodes the result may still take. */
  remaining: number;
}

/** Which description language a document is written in. */
export type Dialect = 'openapi-3.0' | 'openapi-3.1' | 'swagger-2.0';

export function toJsonSchema2020(schema: unknown, dialect: Dialect): Record<string, unknown> {
  const conversion: Conversion = { dialect, onPath: new WeakSet(), converted: new WeakMap(), sizes: new WeakMap(), remaining: MAX_SCHEMA_NODES };
  const converted = convert(schema, conversion, 0);
  // Written out once, bounded: nothing downstream shares (or changes) a part another tool uses.
  return JSON.parse(JSON.stringify(converted)) as Record<string, unknown>;
}

const tooLarge = () => ({ description: 'A value whose schema is too large to carry over (the API description repeats it past what a tool holds).' });

function sized(conversion: Conversion, out: Record<string, unknown>, size: number): Record<string, unknown> {
  conversion.sizes.set(out, size);
  return out;
}

function convert(schema: unknown, conversion: Conversion, depth: number): Record<string, unknown> {
  if (schema === true || schema === undefined) return sized(conversion, {}, 1);
  if (schema === false) return sized(conversion, { not: {} }, 2);
  if (!schema || typeof schema !== 'object' || Array.isArray(schema)) return sized(conversion, {}, 1);
  const done = conversion.converted.get(schema);
  if (done) {
    const size = conversion.sizes.get(done) ?? 1;
    if (size > conversion.remaining) return sized(conversion, tooLarge(), 1);
    conversion.remaining -= size;
    return done;
  }
  // Only a cycle (or an absurd depth) is cut.
  if (conversion.onPath.has(schema) || depth > MAX_DEPTH) return sized(conversion, { description: 'A nested value of the same shape (its schema refers to itself).' }, 1);
  if (conversion.remaining <= 0) return sized(conversion, tooLarge(), 1);
  conversion.remaining -= 1;
  conversion.onPath.add(schema);
  let size = 1;
  const child = (item: unknown) => {
    const out = convert(item, conversion, depth + 1);
    size += conversion.sizes.get(out) ?? 1;
    return out;
  };
  try {
    const out = convertKeywords(schema as Record<string, unknown>, conversion.dialect, child);
    conversion.converted.set(schema, out);
    return sized(conversion, out, size);
  } finally {
    conversion.onPath.delete(schema);
  }
}

function convertKeywords(source: Record<string, unknown>, dialect: string, child: (item: unknown) => Record<string, unknown>): Record<string, unknown> {
  if (typeof source.$ref === 'string') return { description: `A value described by ${source.$ref} in the API description.` };
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(source)) {
    if (OPENAPI_ONLY.has(key) || key.startsWith('x-')) continue;
    if (key === 'patternProperties' && value && typeof value === 'object') {
      out[key] = Object.fromEntries(Object.entries(value).map(([pattern, item]) => [meantPattern(pattern), child(item)]));
    } else if (key === 'properties' || key === '$defs' || key === 'definitions') {
      out[key] = mapValues(value, (item) => child(item));
    } else if (key === 'items' && Array.isArray(value)) {
      // Draft 4 tuples are 2020-12 prefixItems.
      out.prefixItems = value.map((item) => child(item));
    } else if (['items', 'additionalProperties', 'not', 'contains', 'propertyNames', 'if', 'then', 'else', 'unevaluatedProperties', 'unevaluatedItems'].includes(key)) {
      out[key] = typeof value === 'boolean' ? value : child(value);
    } else if (key === 'allOf' || key === 'anyOf' || key === 'oneOf' || key === 'prefixItems') {
      out[key] = Array.isArray(value) ? value.map((item) => child(item)) : value;
    } else if ((key === 'exclusiveMinimum' || key === 'exclusiveMaximum') && typeof value === 'boolean') {
      const bound = key === 'exclusiveMinimum' ? 'minimum' : 'maximum';
      if (value && typeof source[bound] === 'number') out[key] = source[bound];
    } else if ((key === 'minimum' || key === 'maximum') && source[key === 'minimum' ? 'exclusiveMinimum' : 'exclusiveMaximum'] === true) {
      // Said by exclusiveMinimum/Maximum above.
    } else if (key === 'pattern' && typeof value === 'string') {
      out.pattern = meantPattern(value);
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
}

function mapValues(value: unknown, map: (item: unknown) => unknown): unknown {
  if (!value || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, map(item)]));
}

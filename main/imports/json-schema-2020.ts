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

/**
 * Schemas converted whole by earlier calls on one description (so one dialect): converted again
 * as they were (the parser shares one object for every use of a component, and
 * Stripe's answers name most of its API, so converting each use anew was most
 * of its preview). Whole: nothing in it was cut for the call's budget, a cycle
 * or depth, so it is the same wherever it is met; `height` is how deep it goes,
 * so it is not reused where it would pass the depth limit.
 */
export interface SchemaCache {
  whole: WeakMap<object, { out: Record<string, unknown>; size: number; chars: number; height: number }>;
  /**
   * What converting a schema within a length gave (undefined: too long), by the schema and that length: a description
   * answers many operations with one schema (Stripe's retrieve, create and update of a customer), and one that names
   * most of its API is too long at every use, found out anew each time without this.
   */
  within: WeakMap<object, { maxChars: number; out: Record<string, unknown> | undefined }>;
}

export function schemaCache(): SchemaCache {
  return { whole: new WeakMap(), within: new WeakMap() };
}

/** What a converted schema of this call amounts to as written out (shared parts counted every time they appear). */
interface Made {
  /** Its nodes. */
  size: number;
  /** The characters of its JSON, exactly. */
  chars: number;
  /** How deep it goes, when it is whole (see SchemaCache); undefined when it is not. */
  height: number | undefined;
}

interface Conversion {
  dialect: string;
  cache: SchemaCache | undefined;
  /** Objects being converted now, on the path from the root: meeting one again is a cycle. */
  onPath: WeakSet<object>;
  /** Each shared schema is converted once per call: what it became. */
  converted: WeakMap<object, Record<string, unknown>>;
  /** Every schema this call made (or took from the cache), and what it amounts to. */
  made: WeakMap<object, Made>;
  /** Nodes the result may still take. */
  remaining: number;
  /** Characters its JSON may still take (past them, TOO_LONG is thrown). */
  charsLeft: number;
}

/** Which description language a document is written in. */
export type Dialect = 'openapi-3.0' | 'openapi-3.1' | 'swagger-2.0';

/**
 * The schema in draft 2020-12. Parts met more than once (the parser shares one object for every use of a component)
 * are one object in the result, and in the results of calls given the same cache: nothing downstream changes a
 * converted schema (each tool's is copied when it is written), and a description's tools then cost memory, checks and
 * a copy across processes once per component rather than once per use.
 */
export function toJsonSchema2020(schema: unknown, dialect: Dialect, cache?: SchemaCache): Record<string, unknown> {
  return converted(schema, dialect, cache);
}

/**
 * The same, or undefined when its JSON would be longer than `maxChars`: counted exactly while converting, so a schema
 * far too large costs no more than the limit. (Stripe's answers each name most of its API: converting each in full,
 * to throw it away, took 17 of the 18 seconds its import took.)
 */
export function toJsonSchema2020Within(schema: unknown, dialect: Dialect, maxChars: number, cache?: SchemaCache): Record<string, unknown> | undefined {
  const known = schema && typeof schema === 'object' ? cache?.within.get(schema) : undefined;
  if (known && known.maxChars === maxChars) return known.out;
  let out: Record<string, unknown> | undefined;
  try {
    out = converted(schema, dialect, cache, maxChars);
  } catch (error) {
    if (error !== TOO_LONG) throw error;
  }
  if (schema && typeof schema === 'object') cache?.within.set(schema, { maxChars, out });
  return out;
}

/**
 * How long a schema's JSON would be, about, as the description writes it (OpenAPI-only keywords left out), each
 * shared schema measured once for the whole description: most of a large API's answers can be told too large
 * without converting them. A schema met again on its own path counts as the note that cuts it.
 */
export function schemaSizeEstimator(): (schema: unknown) => number {
  const known = new WeakMap<object, number>();
  const onPath = new WeakSet<object>();
  const measure = (value: unknown, depth: number): number => {
    if (value === null || typeof value !== 'object') return typeof value === 'string' ? value.length + 2 : String(value).length;
    const seen = known.get(value);
    if (seen !== undefined) return seen;
    if (onPath.has(value) || depth > MAX_DEPTH) return CUT_CHARS;
    onPath.add(value);
    let chars = 2;
    const isArray = Array.isArray(value);
    for (const key in value) {
      if (!isArray && (OPENAPI_ONLY.has(key) || key.startsWith('x-'))) continue;
      chars += (isArray ? 1 : key.length + 4) + measure((value as Record<string, unknown>)[key], depth + 1);
    }
    onPath.delete(value);
    known.set(value, chars);
    return chars;
  };
  return (schema) => measure(schema, 0);
}

/** About the length of the note a cycle becomes. */
const CUT_CHARS = 80;

function converted(schema: unknown, dialect: Dialect, cache: SchemaCache | undefined, maxChars = Infinity): Record<string, unknown> {
  const conversion: Conversion = { dialect, cache, onPath: new WeakSet(), converted: new WeakMap(), made: new WeakMap(), remaining: MAX_SCHEMA_NODES, charsLeft: maxChars };
  return convert(schema, conversion, 0);
}

/** Thrown when a conversion passes its length: nothing of it is wanted. */
class TooLong extends Error {}
const TOO_LONG = new TooLong('the schema is longer than asked for');

/** Characters JSON.stringify writes for a string: its quotes, and escapes for quotes, backslashes, controls and lone surrogates. */
export function jsonStringLength(text: string): number {
  if (!NEEDS_ESCAPE.test(text)) return text.length + 2;
  let chars = 2;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (code === 0x22 || code === 0x5c || code === 0x08 || code === 0x09 || code === 0x0a || code === 0x0c || code === 0x0d) chars += 2;
    else if (code < 0x20) chars += 6;
    else if (code >= 0xd800 && code <= 0xdbff && index + 1 < text.length && isLowSurrogate(text.charCodeAt(index + 1))) {
      chars += 2;
      index++;
    } else if (code >= 0xd800 && code <= 0xdfff) chars += 6;
    else chars += 1;
  }
  return chars;
}

// Controls are what JSON escapes, so the pattern names them.
// eslint-disable-next-line no-control-regex
const NEEDS_ESCAPE = /["\\\u0000-\u001f\ud800-\udfff]/;
const isLowSurrogate = (code: number) => code >= 0xdc00 && code <= 0xdfff;

/** Characters of JSON between a container's brackets that separate its `count` items. */
const separators = (count: number) => (count > 0 ? count - 1 : 0);

/** The characters JSON takes for a value, exactly, not counting the converted schemas inside it (each counted as it is made). */
function ownChars(value: unknown, made: WeakMap<object, Made>): number {
  if (value === null || typeof value !== 'object') return typeof value === 'string' ? jsonStringLength(value) : String(value).length;
  if (made.has(value)) return 0;
  if (Array.isArray(value)) {
    let chars = 2 + separators(value.length);
    for (const item of value) chars += ownChars(item, made);
    return chars;
  }
  let chars = 2;
  let count = 0;
  for (const key in value) {
    chars += jsonStringLength(key) + 1 + ownChars((value as Record<string, unknown>)[key], made);
    count++;
  }
  return chars + separators(count);
}

const tooLarge = () => ({ description: 'A value whose schema is too large to carry over (the API description repeats it past what a tool holds).' });
const cycleNote = () => ({ description: 'A nested value of the same shape (its schema refers to itself).' });

function spend(conversion: Conversion, chars: number): void {
  conversion.charsLeft -= chars;
  if (conversion.charsLeft < 0) throw TOO_LONG;
}

/**
 * A schema of its own few characters, counted and spent here: a leaf, the same wherever it is met (`height` 0), or a
 * note that stands for a part left out (not whole: it was cut where it was met).
 */
function small(conversion: Conversion, out: Record<string, unknown>, size: number, height: 0 | undefined): Record<string, unknown> {
  const chars = ownChars(out, conversion.made);
  spend(conversion, chars);
  conversion.made.set(out, { size, chars, height });
  return out;
}

/** A converted schema an earlier call made whole, charged to this call's budget as a part met twice is. */
function reuse(conversion: Conversion, schema: object, depth: number): Record<string, unknown> | undefined {
  const kept = conversion.cache?.whole.get(schema);
  if (!kept || depth + kept.height > MAX_DEPTH || kept.size > conversion.remaining) return undefined;
  conversion.remaining -= kept.size;
  spend(conversion, kept.chars);
  conversion.made.set(kept.out, { size: kept.size, chars: kept.chars, height: kept.height });
  conversion.converted.set(schema, kept.out);
  return kept.out;
}

function convert(schema: unknown, conversion: Conversion, depth: number): Record<string, unknown> {
  if (schema === true || schema === undefined) return small(conversion, {}, 1, 0);
  if (schema === false) return small(conversion, { not: {} }, 2, 0);
  if (!schema || typeof schema !== 'object' || Array.isArray(schema)) return small(conversion, {}, 1, 0);
  const done = conversion.converted.get(schema);
  if (done) {
    const { size, chars } = conversion.made.get(done)!;
    if (size > conversion.remaining) return small(conversion, tooLarge(), 1, undefined);
    conversion.remaining -= size;
    spend(conversion, chars);
    return done;
  }
  const kept = reuse(conversion, schema, depth);
  if (kept) return kept;
  // Only a cycle (or an absurd depth) is cut.
  if (conversion.onPath.has(schema) || depth > MAX_DEPTH) return small(conversion, cycleNote(), 1, undefined);
  if (conversion.remaining <= 0) return small(conversion, tooLarge(), 1, undefined);
  conversion.remaining -= 1;
  conversion.onPath.add(schema);
  let size = 1;
  let chars = 0;
  // Whole while every part is; its height is its tallest part's, plus one.
  let height: number | undefined = 0;
  const child = (item: unknown) => {
    const out = convert(item, conversion, depth + 1);
    const part = conversion.made.get(out)!;
    size += part.size;
    chars += part.chars;
    height = part.height === undefined || height === undefined ? undefined : Math.max(height, part.height + 1);
    return out;
  };
  try {
    const out = convertKeywords(schema as Record<string, unknown>, conversion.dialect, child);
    const own = ownChars(out, conversion.made);
    spend(conversion, own);
    conversion.made.set(out, { size, chars: own + chars, height });
    conversion.converted.set(schema, out);
    if (height !== undefined) conversion.cache?.whole.set(schema, { out, size, chars: own + chars, height });
    return out;
  } finally {
    conversion.onPath.delete(schema);
  }
}

/** Keywords whose value is one schema (or a boolean, kept as it is). */
const ONE_SCHEMA = new Set(['items', 'additionalProperties', 'not', 'contains', 'propertyNames', 'if', 'then', 'else', 'unevaluatedProperties', 'unevaluatedItems']);
/** Keywords whose value is a list of schemas. */
const SCHEMA_LISTS = new Set(['allOf', 'anyOf', 'oneOf', 'prefixItems']);

function convertKeywords(source: Record<string, unknown>, dialect: string, child: (item: unknown) => Record<string, unknown>): Record<string, unknown> {
  if (typeof source.$ref === 'string') return { description: `A value described by ${source.$ref} in the API description.` };
  const out: Record<string, unknown> = {};
  // `for…in` rather than Object.entries: no pair made for each keyword of each schema (a parsed description's objects inherit none).
  for (const key in source) {
    // "__proto__" is no keyword, and assigned it would set the converted schema's prototype.
    if (OPENAPI_ONLY.has(key) || key.startsWith('x-') || key === '__proto__') continue;
    const value = source[key];
    if (key === 'properties' || key === '$defs' || key === 'definitions') {
      out[key] = mapSchemas(value, child, (name) => name);
    } else if (ONE_SCHEMA.has(key)) {
      // Draft 4 tuples are 2020-12 prefixItems.
      if (key === 'items' && Array.isArray(value)) out.prefixItems = value.map(child);
      else out[key] = typeof value === 'boolean' ? value : child(value);
    } else if (SCHEMA_LISTS.has(key)) {
      out[key] = Array.isArray(value) ? value.map(child) : value;
    } else if (key === 'patternProperties') {
      out[key] = mapSchemas(value, child, meantPattern);
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

/** A map of names to schemas (properties, $defs, patternProperties), each converted, each name as `rename` gives it. */
function mapSchemas(value: unknown, child: (item: unknown) => Record<string, unknown>, rename: (name: string) => string): unknown {
  if (!value || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const name in value) {
    const converted = child((value as Record<string, unknown>)[name]);
    // A property may be named "__proto__": defined, not assigned (which would set the prototype).
    if (name === '__proto__') Object.defineProperty(out, name, { value: converted, enumerable: true, writable: true, configurable: true });
    else out[rename(name)] = converted;
  }
  return out;
}

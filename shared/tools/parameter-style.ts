import type { ParameterStyleRule } from '../schemas/http-impl.js';

/**
 * OpenAPI's parameter serialisation (the style/explode table of 3.0 and 3.1):
 * how one list or object argument is written in the query, a cookie, a path
 * segment or a header. Each item is encoded with the caller's `encode` and the
 * delimiters the style puts between them are written as they are, so an API
 * that splits before decoding tells a comma inside a value (`%2C`) from one
 * between values.
 */

type Encode = (text: string) => string;

/** A value as the text a URL, header or form carries: strings as they are, numbers and booleans written out, the rest as JSON. */
export function valueText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value) ?? '';
}

/** Arrays as their items, objects as their fields (null and absent fields left out), anything else as one value. */
type Shape = { kind: 'primitive'; text: string } | { kind: 'array'; items: string[] } | { kind: 'object'; fields: [string, string][] };

function shapeOf(value: unknown, encode: Encode): Shape {
  if (Array.isArray(value)) return { kind: 'array', items: value.map((item) => encode(valueText(item))) };
  if (value !== null && typeof value === 'object') {
    const fields = Object.entries(value).filter(([, field]) => field !== undefined && field !== null);
    return { kind: 'object', fields: fields.map(([key, field]) => [encode(key), encode(valueText(field))]) };
  }
  return { kind: 'primitive', text: encode(valueText(value)) };
}

const flat = (fields: [string, string][], between: string) => fields.map(([key, value]) => `${key}${between}${value}`);

/**
 * A query parameter or cookie as `name=value` pairs, encoded (form, spaceDelimited, pipeDelimited, deepObject).
 * Path and header styles are not pairs: given here they are written as form, which is what they mean in a query.
 */
export function styledPairs(name: string, value: unknown, rule: ParameterStyleRule, encode: Encode): string[] {
  const key = encode(name);
  if (rule.style === 'deepObject') return deepPairs(key, value, encode, 0);
  const shape = shapeOf(value, encode);
  const explode = rule.explode ?? rule.style === 'form';
  if (shape.kind === 'primitive') return [`${key}=${shape.text}`];
  const delimiter = rule.style === 'spaceDelimited' ? '%20' : rule.style === 'pipeDelimited' ? '|' : ',';
  if (shape.kind === 'array') return explode ? shape.items.map((item) => `${key}=${item}`) : [`${key}=${shape.items.join(delimiter)}`];
  return explode ? flat(shape.fields, '=') : [`${key}=${shape.fields.flat().join(delimiter)}`];
}

const MAX_DEEP_OBJECT_DEPTH = 16;

/** deepObject: `name[field]=value`, deeper fields in further brackets and list items as `name[]` (as Stripe reads them). */
function deepPairs(key: string, value: unknown, encode: Encode, depth: number): string[] {
  if (value === undefined || value === null) return [];
  if (depth > MAX_DEEP_OBJECT_DEPTH) return [`${key}=${encode(valueText(value))}`];
  if (Array.isArray(value)) return value.flatMap((item) => deepPairs(`${key}[]`, item, encode, depth + 1));
  if (typeof value === 'object') return Object.entries(value).flatMap(([field, item]) => deepPairs(`${key}[${encode(field)}]`, item, encode, depth + 1));
  return [`${key}=${encode(valueText(value))}`];
}

/** A path segment or header value (simple, label, matrix); query styles given here are written as simple. */
export function styledText(name: string, value: unknown, rule: ParameterStyleRule, encode: Encode): string {
  const shape = shapeOf(value, encode);
  const explode = rule.explode ?? false;
  if (rule.style === 'matrix') {
    const key = encode(name);
    if (shape.kind === 'primitive') return `;${key}=${shape.text}`;
    if (shape.kind === 'array') return explode ? shape.items.map((item) => `;${key}=${item}`).join('') : `;${key}=${shape.items.join(',')}`;
    return explode ? flat(shape.fields, '=').map((pair) => `;${pair}`).join('') : `;${key}=${shape.fields.flat().join(',')}`;
  }
  const prefix = rule.style === 'label' ? '.' : '';
  const between = rule.style === 'label' && explode ? '.' : ',';
  if (shape.kind === 'primitive') return `${prefix}${shape.text}`;
  if (shape.kind === 'array') return `${prefix}${shape.items.join(between)}`;
  return `${prefix}${(explode ? flat(shape.fields, '=') : shape.fields.flat()).join(between)}`;
}

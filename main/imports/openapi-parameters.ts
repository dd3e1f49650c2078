import type { ParameterStyleRule } from '../../shared/schemas/http-impl.js';
import { toJsonSchema2020, type Dialect, type SchemaCache } from './json-schema-2020.js';

type Json = Record<string, unknown>;
const asObject = (value: unknown): Json => (value && typeof value === 'object' && !Array.isArray(value) ? (value as Json) : {});

/** A parameter's schema: its own (3.x), the one of its only media type, or itself (Swagger 2.0). */
export function parameterSchema(parameter: Json, dialect: Dialect, cache?: SchemaCache): Json {
  if (dialect === 'swagger-2.0') {
    // A Swagger 2.0 parameter is its own schema (type, items, enum…) beside name and place.
    const { name: _name, in: _in, required: _required, description: _description, collectionFormat: _format, ...schema } = parameter;
    return toJsonSchema2020(schema, dialect, cache);
  }
  if (parameter.schema) return toJsonSchema2020(parameter.schema, dialect, cache);
  const [media] = Object.values(asObject(parameter.content)).map(asObject);
  return media?.schema ? toJsonSchema2020(media.schema, dialect, cache) : { type: 'string' };
}

/** Whether values of this schema may be lists or objects (which each style writes its own way). */
function mayBeComposite(schema: Json): boolean {
  const types = Array.isArray(schema.type) ? schema.type : schema.type === undefined ? undefined : [schema.type];
  if (types?.some((type) => type === 'array' || type === 'object')) return true;
  const branches = ['anyOf', 'oneOf', 'allOf'].flatMap((key) => (Array.isArray(schema[key]) ? (schema[key] as unknown[]) : []));
  if (branches.length > 0) return branches.some((branch) => mayBeComposite(asObject(branch)));
  return types === undefined && (schema.properties !== undefined || schema.items !== undefined);
}

/** Swagger 2.0's collectionFormat as the OpenAPI 3 style it became (tsv has none: its lists are sent as the tool's query lists). */
const COLLECTION_FORMATS: Record<string, ParameterStyleRule> = {
  csv: { style: 'form', explode: false },
  ssv: { style: 'spaceDelimited', explode: false },
  pipes: { style: 'pipeDelimited', explode: false },
  multi: { style: 'form', explode: true },
};

const STYLES_BY_PLACE: Record<string, ReadonlySet<string>> = {
  query: new Set(['form', 'spaceDelimited', 'pipeDelimited', 'deepObject']),
  cookie: new Set(['form']),
  path: new Set(['simple', 'label', 'matrix']),
  header: new Set(['simple']),
};

/**
 * How the tool writes this parameter's value (OpenAPI's serialisation table), when it matters: for values that may be
 * lists or objects, and for path styles that write more than the value (label, matrix). A parameter described by
 * `content` is written as its media type says (JSON), which is what the tool does without a rule.
 */
export function parameterStyle(parameter: Json, schema: Json, dialect: Dialect, argument: string): ParameterStyleRule | undefined {
  const place = String(parameter.in);
  const name = String(parameter.name);
  if (dialect === 'swagger-2.0') {
    if (schema.type !== 'array' || (place !== 'query' && place !== 'path' && place !== 'header')) return undefined;
    const rule = COLLECTION_FORMATS[typeof parameter.collectionFormat === 'string' ? parameter.collectionFormat : 'csv'];
    if (!rule) return undefined;
    return place === 'query' ? rule : { style: 'simple', explode: false };
  }
  if (parameter.content !== undefined || !STYLES_BY_PLACE[place]) return undefined;
  const given = typeof parameter.style === 'string' && STYLES_BY_PLACE[place].has(parameter.style) ? (parameter.style as ParameterStyleRule['style']) : undefined;
  const style = given ?? (place === 'query' || place === 'cookie' ? 'form' : 'simple');
  const explode = typeof parameter.explode === 'boolean' ? parameter.explode : style === 'form';
  if (!mayBeComposite(schema) && style !== 'label' && style !== 'matrix') return undefined;
  return { style, explode, ...(style === 'matrix' && argument !== name ? { name } : {}) };
}

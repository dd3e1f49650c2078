import type { TSchema } from '@sinclair/typebox';
import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import type { ValidationIssue } from '../../shared/errors.js';
import { linearRegExpEngine } from '../common/linear-regex.js';

// ajv-formats ships CommonJS with a default export that bundlers and Node's
// ESM loader unwrap differently.
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ??
  addFormatsModule) as typeof addFormatsModule;

/**
 * `peoplesSchemas` is for schemas that people, models' tools and servers
 * supply (argSchema, outputSchema): their patterns run on the linear-time
 * engine. `strict` is for our own schemas (a typo in one is a bug). Schemas people
 * write (argSchema) are checked without it, so annotations such as
 * "x-order" stay allowed.
 */
export function createAjv(options: { strict: boolean; useDefaults?: boolean; peoplesSchemas?: boolean } = { strict: true }): Ajv2020 {
  const ajv = new Ajv2020({
    allErrors: true,
    strict: options.strict,
    strictRequired: false,
    useDefaults: options.useDefaults ?? false,
    // Patterns in schemas people and servers write run in linear time; ours are trusted and native.
    // and their property names may be Object.prototype's ("constructor"), which must not be found on a value that lacks them.
    ...(options.peoplesSchemas ? { code: { regExp: linearRegExpEngine }, ownProperties: true } : {}),
  });
  addFormats(ajv);
  return ajv;
}

export type Validator = ValidateFunction;

export function compile(ajv: Ajv2020, schema: TSchema): Validator {
  return ajv.compile(schema);
}

/** ajv's errors as issues a person can act on: a JSON pointer and a sentence. */
export function issuesFrom(errors: ErrorObject[] | null | undefined): ValidationIssue[] {
  const all = errors ?? [];
  // "must match a schema in anyOf" adds nothing when its branches already said why.
  const specific = new Set(all.filter((error) => error.keyword !== 'anyOf' && error.keyword !== 'oneOf').map((error) => error.instancePath));
  const useful = all.filter((error) => !((error.keyword === 'anyOf' || error.keyword === 'oneOf') && specific.has(error.instancePath)));
  return useful.map((error) => {
    const path = error.instancePath === '' ? '/' : error.instancePath;
    if (error.keyword === 'additionalProperties') {
      const extra = (error.params as { additionalProperty: string }).additionalProperty;
      return { path, message: `unknown property "${extra}"` };
    }
    if (error.keyword === 'required') {
      // Reported where the value is missing, so a form shows it at the field.
      const missing = (error.params as { missingProperty: string }).missingProperty;
      return { path: `${error.instancePath}/${missing.replaceAll('~', '~0').replaceAll('/', '~1')}`, message: 'is required' };
    }
    if (error.keyword === 'enum') {
      const allowed = (error.params as { allowedValues: unknown[] }).allowedValues;
      return { path, message: `must be one of: ${allowed.map((value) => JSON.stringify(value)).join(', ')}` };
    }
    return { path, message: error.message ?? 'is invalid' };
  });
}

export function describeIssues(issues: ValidationIssue[]): string {
  return issues.map((issue) => `${issue.path} ${issue.message}`).join('; ');
}

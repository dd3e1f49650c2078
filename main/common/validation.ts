import type { TSchema } from '@sinclair/typebox';
import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import type { ValidationIssue } from '../../shared/errors.js';
import { linearRegExpEngine } from '../common/linear-regex.js';
import { addQuickStringLengths } from './string-length.js';

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
export function createAjv(options: { strict: boolean; useDefaults?: boolean; peoplesSchemas?: boolean; allErrors?: boolean; inlineRefs?: boolean } = { strict: true }): Ajv2020 {
  const ajv = new Ajv2020({
    allErrors: options.allErrors ?? true,
    strict: options.strict,
    strictRequired: false,
    useDefaults: options.useDefaults ?? false,
    inlineRefs: options.inlineRefs ?? true,
    // Patterns in schemas people and servers write run in linear time; ours are trusted and native.
    // and their property names may be Object.prototype's ("constructor"), which must not be found on a value that lacks them.
    // Their code is not optimised: that pass was ~40% of compiling one, which holds the core's thread, and checking
    // a tool's arguments was no slower without it (0.12–0.24 µs a check either way, a GitHub-like schema, measured).
    ...(options.peoplesSchemas ? { code: { regExp: linearRegExpEngine, optimize: false }, ownProperties: true } : {}),
    // Errors carry the schema that failed, so its `hint` can say what to do.
    verbose: true,
    // Our own schemas are checked by strict mode and the dispatcher's test, not against the meta-schema again in every
    // process: compiling the meta-schema took ~40 ms for each of the core's instances at every start. People's schemas
    // still are (and `validateSchema()` called on purpose, as the store's checks do, works on every instance).
    validateSchema: options.peoplesSchemas ?? false,
  });
  addFormats(ajv);
  addQuickStringLengths(ajv);
  // `hint`: a sentence our schemas give for a value that fails them ("Use letters, digits and -").
  ajv.addKeyword({ keyword: 'hint', schemaType: 'string' });
  return ajv;
}

export type Validator = ValidateFunction;

export function compile(ajv: Ajv2020, schema: TSchema): Validator {
  return ajv.compile(schema);
}

/** Texts of people's schemas kept compiled per ajv instance: each at most 512 KB (the schema limit). */
const KEPT_SCHEMA_TEXTS = 32;

const compiledSchemas = new WeakMap<Ajv2020, { byObject: WeakMap<object, Validator>; byText: Map<string, Validator> }>();

/**
 * A schema a person, a script's signature, an import or a server wrote, compiled once for `ajv`: found by the
 * object (a stored tool's), else by its text (a draft sent again at each try, a script edited without changing its
 * signature, the same tool saved under a new version). Compiling holds the core's thread (a deep schema: 20–60 ms
 * here, each time). ajv's own cache is emptied of it, or it would keep every edit forever; past
 * `KEPT_SCHEMA_TEXTS` texts all are forgotten at once. A schema that does not compile throws, and is not kept.
 */
export function compileSchemaOnce(ajv: Ajv2020, schema: object): Validator {
  let kept = compiledSchemas.get(ajv);
  if (!kept) compiledSchemas.set(ajv, (kept = { byObject: new WeakMap(), byText: new Map() }));
  let validate = kept.byObject.get(schema);
  if (validate) return validate;
  const text = JSON.stringify(schema);
  validate = kept.byText.get(text);
  if (!validate) {
    try {
      validate = ajv.compile(schema);
    } finally {
      ajv.removeSchema(schema);
    }
    if (kept.byText.size >= KEPT_SCHEMA_TEXTS) kept.byText.clear();
    kept.byText.set(text, validate);
  }
  kept.byObject.set(schema, validate);
  return validate;
}

/** What a check compiled on first use offers: the call, and the errors of the last one. */
export interface LazyValidator {
  (value: unknown): boolean;
  readonly errors: Validator['errors'];
}

/**
 * A check of one of our own schemas, compiled when it is first used: compiling is slow (a chat's schema ~300 ms on
 * these machines), and most of the core's checks are not needed to start (no chats yet, no tester, no import).
 */
export function compileOnFirstUse(schema: TSchema, options: Parameters<typeof createAjv>[0] = { strict: true }): LazyValidator {
  let compiled: Validator | undefined;
  const validate = (value: unknown) => (compiled ??= compile(createAjv(options), schema))(value);
  return Object.defineProperty(validate, 'errors', { get: () => compiled?.errors ?? null }) as LazyValidator;
}

const UNION_BRANCH = /\/(?:anyOf|oneOf)\/(\d+)\//g;

/**
 * A value that fails a union (a chat message: user, assistant or tool run)
 * gets every branch's complaints; the branches whose tag does not match
 * (`role` is not "user") say nothing useful. Those are dropped when another
 * branch's tag did match, so the issues are the ones of the intended kind.
 */
function withoutMismatchedBranches(errors: ErrorObject[]): ErrorObject[] {
  const ruledOut = new Set<string>();
  const branches = new Map<string, Set<string>>();
  for (const error of errors) {
    for (const match of error.schemaPath.matchAll(UNION_BRANCH)) {
      const union = error.schemaPath.slice(0, match.index);
      const branch = `${union}/${match[0].split('/')[1]}/${match[1]}/`;
      if (!branches.has(union)) branches.set(union, new Set());
      branches.get(union)!.add(branch);
      const rest = error.schemaPath.slice(branch.length);
      if (error.keyword === 'const' && /^properties\/[^/]+\/const$/.test(rest)) ruledOut.add(branch);
    }
  }
  const dropped = [...branches.values()].flatMap((set) => {
    const out = [...set].filter((branch) => ruledOut.has(branch));
    return out.length < set.size ? out : [];
  });
  if (dropped.length === 0) return errors;
  return errors.filter((error) => !dropped.some((branch) => error.schemaPath.startsWith(branch)));
}

/** ajv's errors as issues a person can act on: a JSON pointer and a sentence. */
export function issuesFrom(errors: ErrorObject[] | null | undefined): ValidationIssue[] {
  const all = withoutMismatchedBranches(errors ?? []);
  // "must match a schema in anyOf" adds nothing when its branches already said why, there or inside.
  const specific = all.filter((error) => error.keyword !== 'anyOf' && error.keyword !== 'oneOf').map((error) => error.instancePath);
  const explained = (at: string) => specific.some((path) => path === at || path.startsWith(`${at}/`));
  const useful = all.filter((error) => !((error.keyword === 'anyOf' || error.keyword === 'oneOf') && explained(error.instancePath)));
  const issues = useful.map((error): ValidationIssue => {
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
    return { path, message: sentenceFor(error) };
  });
  // Each branch of a union may say the same thing ("must be object"): once is enough.
  const seen = new Set<string>();
  return issues.filter((issue) => {
    const key = `${issue.path}\u0000${issue.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

const TYPE_WORDS: Record<string, string> = {
  string: 'text',
  number: 'a number',
  integer: 'a whole number',
  boolean: 'true or false',
  object: 'an object',
  array: 'a list',
  null: 'null',
};

/**
 * What a failed keyword means, said plainly; a schema's own `hint` comes
 * first, since it knows what the field is for.
 */
function sentenceFor(error: ErrorObject): string {
  const hint = (error.parentSchema as { hint?: unknown } | undefined)?.hint;
  if (typeof hint === 'string' && error.keyword !== 'type') return hint;
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'minLength':
      return params.limit === 1 ? 'must not be empty' : `must be at least ${String(params.limit)} characters long`;
    case 'maxLength':
      return `must be at most ${String(params.limit)} characters long`;
    case 'minItems':
      return params.limit === 1 ? 'must not be empty' : `must have at least ${String(params.limit)} items`;
    case 'maxItems':
      return `must have at most ${String(params.limit)} items`;
    case 'minimum':
      return `must be ${String(params.limit)} or more`;
    case 'maximum':
      return `must be ${String(params.limit)} or less`;
    case 'exclusiveMinimum':
      return `must be more than ${String(params.limit)}`;
    case 'exclusiveMaximum':
      return `must be less than ${String(params.limit)}`;
    case 'type': {
      const wanted = String(params.type).split(',').map((type) => TYPE_WORDS[type] ?? type);
      return `must be ${wanted.join(' or ')}`;
    }
    case 'const':
      return `must be ${JSON.stringify(params.allowedValue)}`;
    case 'format':
      return `must be a valid ${String(params.format)}`;
    case 'pattern':
      return `must match the pattern ${String(params.pattern)}`;
    default:
      return error.message ?? 'is invalid';
  }
}

export function describeIssues(issues: ValidationIssue[]): string {
  return issues.map((issue) => `${issue.path} ${issue.message}`).join('; ');
}

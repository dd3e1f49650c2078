import { selectRepeated } from '../tools/json-path.js';
import type { RecipeCondition } from '../schemas/recipe-impl.js';
import { parseRecipeTemplate, type RecipeReference } from './references.js';

/** What a recipe's templates can read at one point of a run. */
export interface RecipeScope {
  inputs: Record<string, unknown>;
  /** Results of the steps that ran (a for-each step's: the list of its runs' results). */
  results: ReadonlyMap<string, unknown>;
  /** Steps whose condition did not hold. */
  skipped: ReadonlySet<string>;
  /** Inside a for-each step: its current item and index. */
  each?: { item: unknown; index: number };
}

/** A value a template needs that is not there: which one, and why, in a sentence. */
export class RecipeValueError extends Error {
  constructor(
    readonly code: 'recipe_missing_value' | 'recipe_invalid_template',
    message: string,
  ) {
    super(message);
  }
}

const MAX_DEPTH = 32;

/** What a reference names now: its value, or why there is none. */
export function lookupReference(ref: RecipeReference, scope: RecipeScope): { found: true; value: unknown } | { found: false; why: string } {
  switch (ref.kind) {
    case 'input': {
      const value = Object.hasOwn(scope.inputs, ref.name) ? scope.inputs[ref.name] : undefined;
      return value === undefined ? { found: false, why: `the input "${ref.name}" was not given` } : within(value, ref.path, `the input "${ref.name}"`);
    }
    case 'index':
      return scope.each ? { found: true, value: scope.each.index } : { found: false, why: '${index} is only known inside a step that runs for each item' };
    case 'item':
      if (!scope.each) return { found: false, why: '${item} is only known inside a step that runs for each item' };
      return within(scope.each.item, ref.path, 'the item');
    case 'step':
      if (scope.skipped.has(ref.step)) return { found: false, why: `step "${ref.step}" was skipped (its condition did not hold)` };
      if (!scope.results.has(ref.step)) return { found: false, why: `step "${ref.step}" has not run before this point` };
      return within(scope.results.get(ref.step), ref.path, `step "${ref.step}"'s result`);
  }
}

function within(value: unknown, path: string, what: string): { found: true; value: unknown } | { found: false; why: string } {
  if (path === '') return value === undefined ? { found: false, why: `${what} is empty` } : { found: true, value };
  const expression = `$${path}`;
  const selected = selectRepeated(value ?? null, expression);
  return selected.found ? { found: true, value: selected.value } : { found: false, why: `${what} has nothing at ${path}` };
}

export function asText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value) ?? 'null';
}

/** A template made into its value: one placeholder keeps its JSON type; anything else is text. */
export function renderRecipeTemplate(template: string, scope: RecipeScope, where: string): unknown {
  const read = parseRecipeTemplate(template);
  if (!read.ok) throw new RecipeValueError('recipe_invalid_template', `${where}: the template ${read.problem.message}.`);
  const value = (ref: RecipeReference) => {
    const found = lookupReference(ref, scope);
    if (!found.found) throw new RecipeValueError('recipe_missing_value', `${where}: ${ref.raw} has no value: ${found.why}.`);
    return found.value;
  };
  const [only] = read.parts;
  if (read.parts.length === 1 && only!.kind === 'ref') return value(only!.ref);
  return read.parts.map((part) => (part.kind === 'text' ? part.text : asText(value(part.ref)))).join('');
}

/** A templated value (JSON whose strings are templates) made into its value; `where` names it in errors ("step weather, argument lat"). */
export function renderRecipeValue(value: unknown, scope: RecipeScope, where: string, depth = 0): unknown {
  if (depth > MAX_DEPTH) throw new RecipeValueError('recipe_invalid_template', `${where} is nested more than ${MAX_DEPTH} deep.`);
  if (typeof value === 'string') return renderRecipeTemplate(value, scope, where);
  if (Array.isArray(value)) return value.map((item) => renderRecipeValue(item, scope, where, depth + 1));
  if (value && typeof value === 'object') {
    const rendered: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) rendered[key] = renderRecipeValue(item, scope, `${where}.${key}`, depth + 1);
    return rendered;
  }
  return value;
}

const comparable = (value: unknown) => (typeof value === 'number' || typeof value === 'string' ? value : asText(value));

/**
 * Whether a step's condition holds. `present` and `absent` ask whether the
 * value is there at all; every other test needs it, and says which value was
 * missing when it is not (a condition on a missing value is an error, not a
 * silent "no").
 */
export function conditionHolds(condition: RecipeCondition, scope: RecipeScope, where: string): boolean {
  if (condition.is === 'present' || condition.is === 'absent') {
    let present: boolean;
    try {
      const value = renderRecipeTemplate(condition.value, scope, where);
      present = value !== null && value !== '';
    } catch (error) {
      if (!(error instanceof RecipeValueError) || error.code !== 'recipe_missing_value') throw error;
      present = false;
    }
    return condition.is === 'present' ? present : !present;
  }
  const value = renderRecipeTemplate(condition.value, scope, where);
  switch (condition.is) {
    case 'true':
      return value === true || value === 'true';
    case 'false':
      return value === false || value === 'false';
    default:
      break;
  }
  const other = renderRecipeValue(condition.to ?? null, scope, where);
  switch (condition.is) {
    case 'equal':
      return asText(value) === asText(other);
    case 'not-equal':
      return asText(value) !== asText(other);
    case 'contains':
      return Array.isArray(value) ? value.some((item) => asText(item) === asText(other)) : asText(value).includes(asText(other));
    case 'greater':
    case 'less': {
      const [a, b] = [Number(value), Number(other)];
      const numeric = Number.isFinite(a) && Number.isFinite(b);
      const [left, right] = numeric ? [a, b] : [comparable(value), comparable(other)];
      return condition.is === 'greater' ? left > right : left < right;
    }
  }
}

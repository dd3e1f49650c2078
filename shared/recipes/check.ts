import type { RecipeImpl, RecipeStep, RecipeToolRef } from '../schemas/recipe-impl.js';
import { parseRecipeTemplate, templatesIn, type RecipeReference } from './references.js';

/** What a recipe's builder and its save need to know of the tool a step calls. */
export interface StepToolInfo {
  displayName: string;
  argSchema: Record<string, unknown>;
  outputSchema?: unknown;
  /** Why it cannot run now (switched off, its server gone); absent when it can. */
  blockedReason?: string;
  /** It asks the person before every call. */
  requiresApproval?: boolean;
}

export interface RecipeProblem {
  /** The step it is about; absent for the recipe's output. */
  step?: string;
  /** Where in the tool file: `/impl/steps/1/args/lat`. */
  path: string;
  level: 'error' | 'warning' | 'note';
  code: 'recipe_step_tool_missing' | 'recipe_step_blocked' | 'recipe_missing_arg' | 'recipe_unknown_arg' | 'recipe_type_mismatch' | 'recipe_bad_reference' | 'recipe_invalid_template' | 'recipe_duplicate_step' | 'recipe_asks_first';
  message: string;
}

type JsonType = 'string' | 'number' | 'integer' | 'boolean' | 'object' | 'array' | 'null';

const typesOf = (schema: unknown): JsonType[] | null => {
  if (!schema || typeof schema !== 'object') return null;
  const type = (schema as { type?: unknown }).type;
  if (typeof type === 'string') return [type as JsonType];
  return Array.isArray(type) ? (type as JsonType[]) : null;
};

function typeOfValue(value: unknown): JsonType {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value as JsonType;
}

const fits = (actual: JsonType[], expected: JsonType[]) =>
  actual.some((type) => expected.includes(type) || (type === 'integer' && expected.includes('number')));

/** The schema at a simple path (`.a.b`, `[0]`) of an output schema, or null where it cannot be told. */
function schemaAt(schema: unknown, path: string): unknown {
  let current = schema;
  for (const segment of path.match(/\.[A-Za-z_$][\w$]*|\[\d+\]/g) ?? []) {
    if (!current || typeof current !== 'object') return null;
    const node = current as { properties?: Record<string, unknown>; items?: unknown };
    current = segment.startsWith('[') ? node.items : node.properties?.[segment.slice(1)];
  }
  return (path.match(/\.[A-Za-z_$][\w$]*|\[\d+\]/g) ?? []).join('') === path ? current : null;
}

const stepLabel = (step: RecipeStep, index: number) => `Step ${index + 1} (${step.id})`;

/**
 * Everything wrong with a recipe that can be told before it runs, each at
 * its place: steps calling tools that are gone or switched off, required
 * arguments not given, arguments the tool does not take, values whose type
 * cannot fit, references to inputs that do not exist or steps that come
 * later. Used by the builder as a person edits and by the core when saving.
 */
export function checkRecipe(impl: RecipeImpl, argSchema: Record<string, unknown>, toolFor: (ref: RecipeToolRef) => StepToolInfo | undefined): RecipeProblem[] {
  const problems: RecipeProblem[] = [];
  const inputs = ((argSchema as { properties?: Record<string, unknown> }).properties ?? {});
  const seen = new Map<string, number>();
  const tools = new Map<string, StepToolInfo | undefined>();

  const checkRefs = (value: unknown, path: string, index: number, step: RecipeStep | undefined, allowItem: boolean) => {
    for (const { where, template } of templatesIn(value, path)) {
      const read = parseRecipeTemplate(template);
      if (!read.ok) {
        problems.push({ ...(step ? { step: step.id } : {}), path: where, level: 'error', code: 'recipe_invalid_template', message: `${read.problem.message}.` });
        continue;
      }
      for (const part of read.parts) if (part.kind === 'ref') referenceProblem(part.ref, where, index, step, allowItem);
    }
  };

  const referenceProblem = (ref: RecipeReference, path: string, index: number, step: RecipeStep | undefined, allowItem: boolean) => {
    const at = { ...(step ? { step: step.id } : {}), path, level: 'error' as const, code: 'recipe_bad_reference' as const };
    if (ref.kind === 'input' && !Object.hasOwn(inputs, ref.name)) problems.push({ ...at, message: `${ref.raw}: the recipe has no input "${ref.name}". Add it to the inputs, or pick another value.` });
    if ((ref.kind === 'item' || ref.kind === 'index') && !allowItem) problems.push({ ...at, message: `${ref.raw} is only known in the arguments of a step that runs for each item.` });
    if (ref.kind === 'step') {
      const earlier = seen.get(ref.step);
      if (earlier === undefined || earlier >= index) {
        const later = impl.steps.some((other) => other.id === ref.step);
        problems.push({ ...at, message: later ? `${ref.raw}: step "${ref.step}" runs ${ref.step === step?.id ? 'as this one' : 'later'}; a step can use only the results of steps before it.` : `${ref.raw}: there is no step "${ref.step}".` });
      }
    }
  };

  impl.steps.forEach((step, index) => {
    const base = `/impl/steps/${index}`;
    if (seen.has(step.id)) problems.push({ step: step.id, path: `${base}/id`, level: 'error', code: 'recipe_duplicate_step', message: `Two steps are named "${step.id}": give each its own name.` });
    if (step.when) {
      checkRefs(step.when.value, `${base}/when/value`, index, step, false);
      if (step.when.to !== undefined) checkRefs(step.when.to, `${base}/when/to`, index, step, false);
    }
    if (step.forEach) checkRefs(step.forEach, `${base}/forEach`, index, step, false);
    checkRefs(step.args, `${base}/args`, index, step, step.forEach !== undefined);

    const tool = toolFor(step.tool);
    tools.set(step.id, tool);
    if (!tool) {
      problems.push({ step: step.id, path: `${base}/tool`, level: 'error', code: 'recipe_step_tool_missing', message: `${stepLabel(step, index)} calls a tool that is not there (${step.tool.slug}${step.tool.version ? ` ${step.tool.version}` : ''}): pick another tool for this step, or import the bundle it came from.` });
    } else {
      if (tool.blockedReason) problems.push({ step: step.id, path: `${base}/tool`, level: 'warning', code: 'recipe_step_blocked', message: `${stepLabel(step, index)} calls ${tool.displayName}, which cannot run now: ${tool.blockedReason}` });
      if (tool.requiresApproval) problems.push({ step: step.id, path: `${base}/tool`, level: 'note', code: 'recipe_asks_first', message: `${tool.displayName} asks before every call: the recipe waits for your yes at this step.` });
      argumentProblems(step, index, tool, base);
    }
    if (!seen.has(step.id)) seen.set(step.id, index);
  });
  checkRefs(impl.output, '/impl/output', impl.steps.length, undefined, false);
  return problems;

  function argumentProblems(step: RecipeStep, index: number, tool: StepToolInfo, base: string) {
    const properties = ((tool.argSchema as { properties?: Record<string, unknown> }).properties ?? {});
    const required = ((tool.argSchema as { required?: unknown }).required ?? []) as string[];
    for (const name of Array.isArray(required) ? required : []) {
      if (!Object.hasOwn(step.args, name)) problems.push({ step: step.id, path: `${base}/args/${name}`, level: 'error', code: 'recipe_missing_arg', message: `${stepLabel(step, index)}: ${tool.displayName} needs "${name}"; choose where it comes from.` });
    }
    const closed = (tool.argSchema as { additionalProperties?: unknown }).additionalProperties === false;
    for (const [name, value] of Object.entries(step.args)) {
      if (!Object.hasOwn(properties, name)) {
        if (closed) problems.push({ step: step.id, path: `${base}/args/${name}`, level: 'error', code: 'recipe_unknown_arg', message: `${stepLabel(step, index)}: ${tool.displayName} takes no argument "${name}"; remove it.` });
        continue;
      }
      const expected = typesOf(properties[name]);
      const actual = expected ? typeOfArgument(value) : null;
      if (expected && actual && !fits(actual, expected)) {
        problems.push({ step: step.id, path: `${base}/args/${name}`, level: 'error', code: 'recipe_type_mismatch', message: `${stepLabel(step, index)}: "${name}" takes ${expected.join(' or ')}, and gets ${actual.join(' or ')}.` });
      }
    }
  }

  /** The type a step's argument will have, where it can be told before a run: a fixed value, a template with text, an input, a field of an output schema. */
  function typeOfArgument(value: unknown): JsonType[] | null {
    if (typeof value !== 'string') return [typeOfValue(value)];
    const read = parseRecipeTemplate(value);
    if (!read.ok) return null;
    if (read.parts.length !== 1 || read.parts[0]!.kind !== 'ref') return ['string'];
    const ref = read.parts[0]!.ref;
    if (ref.kind === 'index') return ['integer'];
    if (ref.kind === 'input') return typesOf(inputs[ref.name]);
    if (ref.kind === 'step') {
      const output = tools.get(ref.step)?.outputSchema;
      const stepOf = impl.steps.find((step) => step.id === ref.step);
      if (stepOf?.forEach) return ref.path === '' ? ['array'] : null;
      return output && typeof output === 'object' ? typesOf(schemaAt(output, ref.path)) : null;
    }
    return null;
  }
}

/**
 * A recipe that reaches itself through the recipes its steps call: the
 * tools on the way round, starting and ending with the one it came back to,
 * or null. `stepsOf` gives the tools a recipe's steps call (undefined for a
 * tool that is not a recipe); `key` says which tools are the same.
 */
export function findRecipeCycle<T>(start: T, stepsOf: (tool: T) => T[] | undefined, key: (tool: T) => string): T[] | null {
  const path: T[] = [start];
  const done = new Set<string>();
  const visit = (tool: T): T[] | null => {
    for (const next of stepsOf(tool) ?? []) {
      if (path.some((on) => key(on) === key(next))) return [...path, next];
      if (done.has(key(next)) || path.length > 64) continue;
      path.push(next);
      const found = visit(next);
      path.pop();
      if (found) return found;
      done.add(key(next));
    }
    return null;
  };
  return visit(start);
}

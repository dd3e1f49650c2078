import type { RecipeImpl, RecipeStep } from '../schemas/recipe-impl.js';

/** One tool call of a chat, as "Save as recipe" reads it. */
export interface RecipeCall {
  tool: { bundleID: string; slug: string; version: string };
  args: Record<string, unknown>;
  /** Its result's value (a failed call is not offered). */
  value: unknown;
}

const MOST_LEAVES = 2_000;
const DEEPEST = 8;
const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;
const member = (key: string) => (IDENTIFIER.test(key) ? `.${key}` : `['${key.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}']`);

/** Values too common to mean they were passed on (0, 1, true, "", "a"): never taken as a reference. */
function telling(value: unknown): boolean {
  if (typeof value === 'string') return value.length >= 2;
  if (typeof value === 'number') return value !== 0 && value !== 1;
  return false;
}

/** Every scalar inside a value with its JSONPath continuation (`.results[0].lat`), first found first. */
function leavesOf(value: unknown, path = '', depth = 0, found: { path: string; value: unknown }[] = []): { path: string; value: unknown }[] {
  if (found.length >= MOST_LEAVES || depth > DEEPEST) return found;
  if (Array.isArray(value)) value.forEach((item, index) => leavesOf(item, `${path}[${index}]`, depth + 1, found));
  else if (value && typeof value === 'object') for (const [key, item] of Object.entries(value)) leavesOf(item, `${path}${member(key)}`, depth + 1, found);
  else found.push({ path, value });
  return found;
}

const typeOf = (value: unknown) => (Array.isArray(value) ? 'array' : value === null ? 'string' : typeof value === 'number' ? (Number.isInteger(value) ? 'integer' : 'number') : typeof value);

function stepId(slug: string, taken: Set<string>): string {
  let base = slug.replace(/[^A-Za-z0-9_]+/g, '_').replace(/^_+|_+$/g, '').slice(0, 56) || 'step';
  if (/^\d/.test(base)) base = `s_${base}`;
  let id = base;
  for (let count = 2; taken.has(id); count++) id = `${base}_${count}`;
  taken.add(id);
  return id;
}

/**
 * A recipe from calls a model made, in their order: each call a step; an
 * argument whose value an earlier call's result held becomes a reference to
 * that field (the latest such result first); the first call's other
 * arguments become the recipe's inputs (with the values of the chat as their
 * defaults), later calls' others stay fixed values, unless they repeat an
 * input's value. The output is the last step's result. The person checks
 * what was found in the builder.
 */
export function recipeFromCalls(calls: readonly RecipeCall[]): { argSchema: Record<string, unknown>; impl: RecipeImpl } {
  const taken = new Set<string>();
  const steps: RecipeStep[] = [];
  const results: { id: string; leaves: { path: string; value: unknown }[] }[] = [];
  const inputs: Record<string, { type: string; default: unknown }> = {};

  const referenceFor = (value: unknown): string | undefined => {
    if (!telling(value)) return undefined;
    for (const earlier of [...results].reverse()) {
      const leaf = earlier.leaves.find((candidate) => candidate.value === value);
      if (leaf) return `\${steps.${earlier.id}.result${leaf.path}}`;
    }
    const input = Object.entries(inputs).find(([, spec]) => spec.default === value);
    return input ? `\${inputs.${input[0]}}` : undefined;
  };

  calls.forEach((call, index) => {
    const id = stepId(call.tool.slug, taken);
    const args: Record<string, unknown> = {};
    for (const [name, value] of Object.entries(call.args)) {
      const reference = referenceFor(value);
      if (reference) args[name] = reference;
      else if (index === 0 && IDENTIFIER.test(name) && !name.includes('$')) {
        let input = name;
        for (let count = 2; input in inputs; count++) input = `${name}_${count}`;
        inputs[input] = { type: typeOf(value), default: value };
        args[name] = `\${inputs.${input}}`;
      } else args[name] = value;
    }
    steps.push({ id, tool: { bundleID: call.tool.bundleID, slug: call.tool.slug }, args });
    results.push({ id, leaves: leavesOf(call.value) });
  });

  const properties = Object.fromEntries(Object.entries(inputs).map(([name, spec]) => [name, { type: spec.type, default: spec.default }]));
  return {
    argSchema: { type: 'object', properties, required: [], additionalProperties: false },
    impl: { steps, output: steps.length ? `\${steps.${steps.at(-1)!.id}.result}` : null },
  };
}

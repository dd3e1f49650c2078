import { ToolbeltError } from '../../../shared/errors.js';
import { checkRecipe, findRecipeCycle } from '../../../shared/recipes/check.js';
import type { RecipeImpl, RecipeToolRef } from '../../../shared/schemas/recipe-impl.js';
import type { ToolFile, ToolInput } from '../../../shared/schemas/tool.js';

/** What a recipe's check at save needs of the tools its steps name. */
export interface RecipeSaveDeps {
  /** The tool a step names (the version it names, else the latest), whatever its switches say. */
  find(ref: RecipeToolRef): ToolFile | undefined;
}

/** Problems a recipe cannot be saved with: what no change to other tools can fix. */
const STRUCTURAL = new Set(['recipe_duplicate_step', 'recipe_bad_reference', 'recipe_invalid_template']);

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Enough of a recipe's shape to check its references; the rest is the store's schema check, which runs after. */
function hasRecipeShape(impl: unknown): impl is RecipeImpl {
  if (!isObject(impl) || !Array.isArray(impl.steps)) return false;
  return impl.steps.every(
    (step: unknown) =>
      isObject(step) &&
      typeof step.id === 'string' &&
      isObject(step.tool) &&
      typeof step.tool.bundleID === 'string' &&
      typeof step.tool.slug === 'string' &&
      isObject(step.args) &&
      (step.when === undefined || (isObject(step.when) && typeof step.when.value === 'string')) &&
      (step.forEach === undefined || typeof step.forEach === 'string'),
  );
}

/**
 * Checks a recipe before it is written: its steps have names of their own,
 * its templates parse and name inputs it has and steps that come before,
 * and it does not reach itself through the recipes it calls (a cycle would
 * only end at the depth limit). Steps calling tools that are not there, or
 * do not fit, are saved and shown as problems in the builder: the tools may
 * come later (a bundle imported after this one).
 */
export function recipePreparer(deps: RecipeSaveDeps) {
  return (tool: ToolInput, where: { bundleID?: string; slug?: string }): ToolInput => {
    if (tool.type !== 'recipe' || !hasRecipeShape(tool.impl)) return tool;
    const impl = tool.impl;
    const problems = checkRecipe(impl, tool.argSchema, () => undefined).filter((problem) => STRUCTURAL.has(problem.code));
    if (problems.length > 0) {
      throw new ToolbeltError('invalid_params', `The recipe cannot be saved: ${problems[0]!.message}`, {
        issues: problems.map((problem) => ({ path: problem.path, message: problem.message })),
      });
    }
    type Node = { bundleID: string; slug: string };
    // A draft checked before it has an address (tools.validate without one) can only come back to itself by the address it names.
    const at: Node = { bundleID: where.bundleID ?? tool.bundleID ?? '(draft)', slug: where.slug ?? tool.slug ?? '(draft)' };
    const key = (node: Node) => `${node.bundleID}/${node.slug}`;
    const self = key(at);
    const cycle = findRecipeCycle<Node>(
      at,
      (node) => {
        if (key(node) === self) return impl.steps.map((step) => step.tool);
        const found = deps.find(node);
        return found?.type === 'recipe' ? found.impl.steps.map((step) => step.tool) : undefined;
      },
      key,
    );
    if (cycle) {
      const names = cycle.map((node) => (key(node) === self ? tool.displayName : (deps.find(node)?.displayName ?? node.slug)));
      // The step of this recipe the way round begins with.
      const index = Math.max(0, impl.steps.findIndex((step) => key(step.tool) === key(cycle[1]!)));
      const what = key(cycle.at(-1)!) === self ? 'calls itself' : 'calls recipes that call each other';
      throw new ToolbeltError('recipe_cycle', `The recipe ${what}: ${names.join(' → ')}. A recipe cannot come back to itself through its steps; remove one of these calls.`, {
        issues: [{ path: `/impl/steps/${index}/tool`, message: `reaches a recipe that calls itself (${names.join(' → ')})` }],
      });
    }
    return tool;
  };
}

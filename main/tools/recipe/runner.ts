import { ToolbeltError } from '../../../shared/errors.js';
import { AGENT_MAX_DEPTH } from '../../../shared/schemas/agent.js';
import type { AgentStep } from '../../../shared/schemas/agent-step.js';
import { RECIPE_FOR_EACH_DEFAULT, type RecipeStep, type RecipeToolRef } from '../../../shared/schemas/recipe-impl.js';
import type { ToolFile } from '../../../shared/schemas/tool.js';
import { asText, conditionHolds, RecipeValueError, renderRecipeTemplate, renderRecipeValue, type RecipeScope } from '../../../shared/recipes/evaluate.js';
import { Redactor } from '../../common/redact.js';
import type { ToolRecord } from '../../store/records.js';
import { InvokeFailure, type InvokeErrorCode } from '../invoke-error.js';
import type { Invoker } from '../invoker.js';
import type { Readiness } from '../resolver.js';
import { freshBudget, spend } from '../run-lineage.js';
import { lineageFlags, type RunContext, type RunOutcome, type ToolRunner } from '../runners.js';

export type RecipeTool = Extract<ToolFile, { type: 'recipe' }>;

export interface RecipeDeps {
  /** The tool a step names: the version it names, else the latest. */
  find(ref: RecipeToolRef): Promise<ToolRecord | undefined>;
  /** Whether a tool can run now (the resolver's one answer). */
  check(record: ToolRecord | undefined): Readiness;
  invoker: () => Invoker;
}

const SUMMARY_CHARS = 500;
/** Refusals that trying again cannot change. */
const FINAL = new Set(['denied', 'approval_unavailable', 'approval_required', 'tool_denied', 'cancelled', 'agent_budget', 'recipe_depth', 'agent_depth', 'invalid_args']);

/** A step that cannot go on, with the code the recipe's result carries. */
class StepFailure extends Error {
  constructor(
    readonly code: InvokeErrorCode,
    message: string,
  ) {
    super(message);
  }
}

const label = (step: RecipeStep, index: number) => `Step ${index + 1} (${step.id})`;
const summary = (value: unknown) => asText(value).slice(0, SUMMARY_CHARS);

/**
 * Recipe tools: each step calls its tool through the invoker, inside the
 * recipe's lineage (so recipes, scripts and agents nest at most
 * AGENT_MAX_DEPTH deep and share the run's budget of calls), asking the
 * person first through the one door when that tool asks; arguments are the
 * step's templates made from the inputs and earlier results. The first
 * step that fails stops the recipe (unless it says go on or retry) and the
 * result says which step and why.
 */
export function recipeRunner(deps: RecipeDeps): ToolRunner<RecipeTool> {
  return {
    availability: () => null,
    preview: () => Promise.resolve(null),
    logLevel: () => 'info',
    run: (tool, args, context) => runRecipe(deps, tool, args, context),
  };
}

async function runRecipe(deps: RecipeDeps, tool: RecipeTool, inputs: Record<string, unknown>, context: RunContext): Promise<RunOutcome> {
  const path = [...(context.agentPath ?? []), tool.displayName];
  const budget = context.budget ?? freshBudget();
  const redactor = new Redactor([]);
  const steps: AgentStep[] = [];
  const results = new Map<string, unknown>();
  const scope: RecipeScope = { inputs, results, skipped: new Set<string>() };
  const skipped = scope.skipped as Set<string>;
  const kept = () => ({ results: Object.fromEntries(results) });
  const fail = (code: InvokeErrorCode, message: string, failedStep?: string): RunOutcome => ({
    failure: new InvokeFailure(code, message),
    redactor,
    attempts: 1,
    ...(steps.length ? { steps } : {}),
    recipe: { ...kept(), ...(failedStep ? { failedStep } : {}) },
  });
  const { impl } = tool;
  const resumeAt = context.resume ? impl.steps.findIndex((step) => step.id === context.resume!.from) : 0;
  if (resumeAt === -1) return fail('recipe_invalid', `${tool.displayName} has no step "${context.resume!.from}" to run again from.`);

  for (const [index, step] of impl.steps.entries()) {
    if (context.signal.aborted) return fail('cancelled', `${tool.displayName} was cancelled before ${label(step, index)}.`, step.id);
    if (index < resumeAt) {
      // Running again from a later step: this one's result is the last run's, if it had one.
      const earlier = context.resume!.results;
      if (Object.hasOwn(earlier, step.id)) results.set(step.id, earlier[step.id]);
      else skipped.add(step.id);
      const known = deps.check(await deps.find(step.tool));
      steps.push({
        turn: index + 1,
        kind: 'call',
        stepId: step.id,
        name: step.id,
        ...(known.ok ? { tool: known.record.tool.displayName } : {}),
        reused: true,
        ...(Object.hasOwn(earlier, step.id) ? { ok: true, summary: summary(earlier[step.id]) } : { skipped: 'It did not run in the run this one goes on from.' }),
      });
      continue;
    }
    // The step's name: the window says "Step 2 of 3" in the person's language beside it.
    context.onProgress?.({ progress: index, total: impl.steps.length, message: step.id });
    const started = performance.now();
    // What the step's card shows when it fails: the tool and arguments, once they are known.
    const known: Partial<AgentStep> = {};
    const done = (entry: Partial<AgentStep>) => steps.push({ turn: index + 1, kind: 'call', stepId: step.id, name: step.id, durationMs: Math.round(performance.now() - started), ...entry });
    try {
      if (step.when && !conditionHolds(step.when, scope, `${label(step, index)}, its condition`)) {
        skipped.add(step.id);
        done({ skipped: `Its condition did not hold (${step.when.value} is ${step.when.is}${step.when.to !== undefined ? ` ${asText(step.when.to)}` : ''}: no).` });
        continue;
      }
      const target = await toolOf(step, index);
      known.tool = target.tool.displayName;
      if (step.forEach) {
        const list = renderRecipeTemplate(step.forEach, scope, `${label(step, index)}, its for-each`);
        if (!Array.isArray(list)) throw new StepFailure('recipe_for_each', `${label(step, index)} runs for each item of ${step.forEach}, which is not a list (it is ${summary(list).slice(0, 80)}).`);
        const most = impl.limits?.forEachMax ?? RECIPE_FOR_EACH_DEFAULT;
        if (list.length > most) throw new StepFailure('recipe_for_each', `${label(step, index)} would run for ${list.length.toLocaleString('en')} items; a step runs for at most ${most.toLocaleString('en')} (limits.forEachMax, up to 10,000).`);
        const values: unknown[] = [];
        let firstArgs: Record<string, unknown> | undefined;
        for (const [at, item] of list.entries()) {
          const args = argsFor(step, index, { ...scope, each: { item, index: at } });
          firstArgs ??= args;
          known.args = args;
          values.push(await callStep(step, index, target, args, { ...scope, each: { item, index: at } }));
        }
        results.set(step.id, values);
        done({ tool: target.tool.displayName, ...(firstArgs ? { args: firstArgs } : {}), ok: true, runs: list.length, summary: summary(values) });
      } else {
        const args = argsFor(step, index, scope);
        known.args = args;
        const value = await callStep(step, index, target, args, scope);
        results.set(step.id, value);
        done({ tool: target.tool.displayName, args, ok: true, summary: summary(value) });
      }
    } catch (error) {
      const failure = asFailure(error);
      if (!failure) throw error;
      done({ ...known, ok: false, summary: `${failure.code}: ${failure.message}`.slice(0, SUMMARY_CHARS) });
      return fail(failure.code, failure.message, step.id);
    }
  }
  context.onProgress?.({ progress: impl.steps.length, total: impl.steps.length });
  try {
    return { value: renderRecipeValue(impl.output, scope, 'The recipe’s output'), redactor, attempts: 1, steps, recipe: kept() };
  } catch (error) {
    const failure = asFailure(error);
    if (!failure) throw error;
    return fail(failure.code, failure.message);
  }

  async function toolOf(step: RecipeStep, index: number): Promise<Extract<ToolRecord, { kind: 'valid' }>> {
    const readiness = deps.check(await deps.find(step.tool));
    if (readiness.ok) return readiness.record;
    const next = readiness.code === 'tool_disabled' ? 'Switch it on, or pick another tool for this step.' : 'Open the recipe and pick another tool for this step.';
    const what = readiness.code === 'not_found' ? `calls ${step.tool.slug}${step.tool.version ? ` ${step.tool.version}` : ''}, which is not there any more` : `cannot run: ${readiness.message}`;
    throw new StepFailure('recipe_step_tool_missing', `${label(step, index)} ${what}. ${next}`);
  }

  function argsFor(step: RecipeStep, index: number, at: RecipeScope): Record<string, unknown> {
    return renderRecipeValue(step.args, at, `${label(step, index)}, its arguments`) as Record<string, unknown>;
  }

  /** One call of a step's tool, tried again as the step says; a failure it cannot get past ends the recipe, or gives the fallback. */
  async function callStep(step: RecipeStep, index: number, target: Extract<ToolRecord, { kind: 'valid' }>, args: Record<string, unknown>, at: RecipeScope): Promise<unknown> {
    const tries = step.onFailure?.do === 'retry' ? step.onFailure.times + 1 : 1;
    let last = { code: 'tool_error', message: '' };
    for (let attempt = 0; attempt < tries; attempt++) {
      const answer = await callTool(target, args);
      if (answer.ok) return answer.value;
      last = answer.error;
      if (FINAL.has(last.code)) break;
    }
    if (step.onFailure?.do === 'fallback' && last.code !== 'cancelled') return renderRecipeValue(step.onFailure.value, at, `${label(step, index)}, its fallback`);
    const fix = last.code === 'invalid_args' ? ' Check this step’s arguments in the recipe (its tool’s schema may have changed).' : '';
    throw new StepFailure(last.code === 'cancelled' ? 'cancelled' : 'recipe_step_failed', `${label(step, index)} failed: ${target.tool.displayName}: ${last.code}: ${last.message}${fix}`);
  }

  async function callTool(target: Extract<ToolRecord, { kind: 'valid' }>, args: Record<string, unknown>): Promise<{ ok: true; value: unknown } | { ok: false; error: { code: string; message: string } }> {
    if (path.length >= AGENT_MAX_DEPTH + 1) {
      return { ok: false, error: { code: 'recipe_depth', message: `recipes, scripts and agents may call tools only ${AGENT_MAX_DEPTH} deep (${path.join(' → ')}).` } };
    }
    if (!spend(budget, 'toolCalls')) return { ok: false, error: { code: 'agent_budget', message: 'the run has used all its tool calls.' } };
    try {
      // Its door asks the person when the step's tool asks first, naming the path.
      const caller = { kind: 'recipe' as const, path, ...(context.manual ? { manual: true } : {}) };
      const result = await deps.invoker().invoke(target, { args }, { caller, signal: context.signal, agentPath: path, budget, ...lineageFlags(context) });
      return result.ok ? { ok: true, value: result.value } : { ok: false, error: result.error };
    } catch (error) {
      // Refused before it ran (switched off, arguments that do not fit its schema): a failure of the step.
      if (error instanceof ToolbeltError) return { ok: false, error: { code: error.code, message: error.message } };
      throw error;
    }
  }
}

function asFailure(error: unknown): { code: InvokeErrorCode; message: string } | null {
  if (error instanceof StepFailure) return { code: error.code, message: error.message };
  if (error instanceof RecipeValueError) return { code: error.code === 'recipe_missing_value' ? 'recipe_missing_value' : 'recipe_invalid', message: error.message };
  return null;
}

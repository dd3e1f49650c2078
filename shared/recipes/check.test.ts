import { describe, expect, it } from 'vitest';
import type { RecipeImpl } from '../schemas/recipe-impl.js';
import { checkRecipe, type StepToolInfo } from './check.js';
import { conditionHolds, renderRecipeValue, type RecipeScope } from './evaluate.js';

const BUNDLE = '019a0000-0000-7000-8000-000000000001';
const ref = (slug: string) => ({ bundleID: BUNDLE, slug });
const TOOLS: Record<string, StepToolInfo> = {
  geocode: { displayName: 'Geocode', argSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'], additionalProperties: false }, outputSchema: { type: 'object', properties: { lat: { type: 'number' }, name: { type: 'string' } } } },
  weather: { displayName: 'Weather', argSchema: { type: 'object', properties: { lat: { type: 'number' }, days: { type: 'integer' } }, required: ['lat'] }, requiresApproval: true },
  off: { displayName: 'Off', argSchema: { type: 'object' }, blockedReason: 'Off is switched off. Switch it on to run it.' },
};
const toolFor = (tool: { slug: string }) => TOOLS[tool.slug];
const inputs = { type: 'object', properties: { city: { type: 'string' }, count: { type: 'integer' } } };

describe('checking a recipe before it runs', () => {
  it('says, at each argument, what is missing, what the tool does not take and what cannot fit', () => {
    const impl: RecipeImpl = {
      steps: [
        { id: 'geo', tool: ref('geocode'), args: { town: 'Oslo' } },
        { id: 'weather', tool: ref('weather'), args: { lat: '${steps.geo.result.name}', days: '${inputs.count}' } },
        { id: 'typed', tool: ref('weather'), args: { lat: 'at ${steps.geo.result.lat}', days: 2.5 } },
      ],
      output: '${steps.weather.result}',
    };
    const problems = checkRecipe(impl, inputs, toolFor);
    expect(problems.filter((problem) => problem.level === 'error').map((problem) => [problem.path, problem.code])).toEqual([
      ['/impl/steps/0/args/city', 'recipe_missing_arg'],
      ['/impl/steps/0/args/town', 'recipe_unknown_arg'],
      // A field the output schema says is text, for a number.
      ['/impl/steps/1/args/lat', 'recipe_type_mismatch'],
      // Text around a placeholder is text; 2.5 is not a whole number.
      ['/impl/steps/2/args/lat', 'recipe_type_mismatch'],
      ['/impl/steps/2/args/days', 'recipe_type_mismatch'],
    ]);
    expect(problems.find((problem) => problem.path === '/impl/steps/1/args/lat')?.message).toBe('Step 2 (weather): "lat" takes number, and gets string.');
    // An input typed integer fits an integer; the tool that asks first is a note, not an error.
    expect(problems.filter((problem) => problem.level === 'note').map((problem) => problem.step)).toEqual(['weather', 'typed']);
  });

  it('says which steps call tools that are gone or cannot run, and which references point nowhere', () => {
    const impl: RecipeImpl = {
      steps: [
        { id: 'gone', tool: ref('deleted-tool'), args: {} },
        { id: 'off', tool: ref('off'), args: { x: '${item}', y: '${inputs.nope}', z: '${steps.missing.result}', w: '${unclosed' } },
        { id: 'off', tool: ref('off'), args: {} },
      ],
      output: { a: '${steps.off.result}', b: '${index}' },
    };
    const problems = checkRecipe(impl, inputs, toolFor);
    expect(problems.map((problem) => [problem.path, problem.code])).toEqual([
      ['/impl/steps/0/tool', 'recipe_step_tool_missing'],
      ['/impl/steps/1/args/x', 'recipe_bad_reference'],
      ['/impl/steps/1/args/y', 'recipe_bad_reference'],
      ['/impl/steps/1/args/z', 'recipe_bad_reference'],
      ['/impl/steps/1/args/w', 'recipe_invalid_template'],
      ['/impl/steps/1/tool', 'recipe_step_blocked'],
      ['/impl/steps/2/id', 'recipe_duplicate_step'],
      ['/impl/steps/2/tool', 'recipe_step_blocked'],
      ['/impl/output/b', 'recipe_bad_reference'],
    ]);
    expect(problems[0]!.message).toBe('Step 1 (gone) calls a tool that is not there (deleted-tool): pick another tool for this step, or import the bundle it came from.');
  });
});

describe('a recipe’s values and conditions', () => {
  const scope: RecipeScope = { inputs: { city: 'Oslo', n: 3, list: [{ id: 1 }, { id: 2 }] }, results: new Map([['geo', { results: [{ lat: 59.9 }], empty: '' }]]), skipped: new Set(['later']) };

  it('keeps the JSON type of a value that is one placeholder, makes text of anything else, and reaches into lists with JSONPath', () => {
    expect(renderRecipeValue({ lat: '${steps.geo.result.results[0].lat}', text: 'lat=${steps.geo.result.results[0].lat}', ids: '${inputs.list[*].id}', fixed: 7, deep: ['${inputs.n}'] }, scope, 'args')).toEqual({
      lat: 59.9,
      text: 'lat=59.9',
      ids: [1, 2],
      fixed: 7,
      deep: [3],
    });
  });

  it('tests a condition on a value that may be missing only by asking whether it is present; any other test on it is an error that names it', () => {
    expect(conditionHolds({ value: '${steps.geo.result.nothing}', is: 'absent' }, scope, 'c')).toBe(true);
    expect(conditionHolds({ value: '${steps.geo.result.empty}', is: 'present' }, scope, 'c')).toBe(false);
    expect(conditionHolds({ value: '${inputs.n}', is: 'greater', to: 2 }, scope, 'c')).toBe(true);
    expect(conditionHolds({ value: '${inputs.n}', is: 'less', to: '10' }, scope, 'c')).toBe(true);
    expect(conditionHolds({ value: '${inputs.list[*].id}', is: 'contains', to: 2 }, scope, 'c')).toBe(true);
    expect(conditionHolds({ value: '${inputs.city}', is: 'equal', to: 'Oslo' }, scope, 'c')).toBe(true);
    expect(() => conditionHolds({ value: '${steps.later.result.x}', is: 'equal', to: 1 }, scope, 'Step 3 (x), its condition')).toThrow(
      'Step 3 (x), its condition: ${steps.later.result.x} has no value: step "later" was skipped (its condition did not hold).',
    );
  });

  it('refuses a value nested deeper than 32 levels instead of walking it', () => {
    let deep: unknown = 'x';
    for (let level = 0; level < 40; level++) deep = [deep];
    expect(() => renderRecipeValue(deep, scope, 'args')).toThrow('args is nested more than 32 deep.');
  });
});

describe('references walked again and again', () => {
  it('a singular path is walked as the JSONPath library would answer it: own members only, negative indexes from the end', async () => {
    const { select, selectRepeated } = await import('../tools/json-path.js');
    const value = { a: [{ b: 1 }, { b: 2 }], 'x y': { z: null }, list: [] };
    for (const expression of ['$.a[0].b', '$.a[-1].b', "$['x y'].z", '$.a[5]', '$.list[0]', '$.constructor', '$.a.b', '$.a[*].b']) {
      expect(selectRepeated(value, expression)).toEqual(select(value, expression));
    }
  });
});

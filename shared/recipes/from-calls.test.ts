import { describe, expect, it } from 'vitest';
import { recipeFromCalls } from './from-calls.js';
import { checkRecipe } from './check.js';

const BUNDLE = '019a0000-0000-7000-8000-000000000001';
const tool = (slug: string) => ({ bundleID: BUNDLE, slug, version: 'v1' });

describe('a recipe made from a chat’s tool calls', () => {
  it('finds the values passed from one call’s result to the next and turns them into references; the first call’s arguments become inputs', () => {
    const { argSchema, impl } = recipeFromCalls([
      { tool: tool('geocode'), args: { city: 'Oslo', count: 1 }, value: { results: [{ name: 'Oslo', lat: 59.91, lon: 10.75, 'country code': 'NO' }] } },
      { tool: tool('weather'), args: { lat: 59.91, lon: 10.75, units: 'metric', country: 'NO' }, value: { temperature: 5.5 } },
      { tool: tool('to-fahrenheit'), args: { celsius: 5.5, label: 'Oslo' }, value: { f: 41.9 } },
    ]);
    expect(argSchema).toEqual({ type: 'object', properties: { city: { type: 'string', default: 'Oslo' }, count: { type: 'integer', default: 1 } }, required: [], additionalProperties: false });
    expect(impl.steps).toEqual([
      { id: 'geocode', tool: { bundleID: BUNDLE, slug: 'geocode' }, args: { city: '${inputs.city}', count: '${inputs.count}' } },
      {
        id: 'weather',
        tool: { bundleID: BUNDLE, slug: 'weather' },
        args: { lat: '${steps.geocode.result.results[0].lat}', lon: '${steps.geocode.result.results[0].lon}', units: 'metric', country: "${steps.geocode.result.results[0]['country code']}" },
      },
      // The latest result that holds the value wins; a value a result also holds is taken from it before the inputs.
      { id: 'to_fahrenheit', tool: { bundleID: BUNDLE, slug: 'to-fahrenheit' }, args: { celsius: '${steps.weather.result.temperature}', label: '${steps.geocode.result.results[0].name}' } },
    ]);
    expect(impl.output).toBe('${steps.to_fahrenheit.result}');
    // What it makes passes the builder's own check.
    expect(checkRecipe(impl, argSchema, () => undefined).filter((problem) => problem.code !== 'recipe_step_tool_missing')).toEqual([]);
  });

  it('does not take common values (0, 1, true, one letter) for references, and names repeated tools apart', () => {
    const { impl } = recipeFromCalls([
      { tool: tool('list'), args: {}, value: { page: 1, done: true, items: ['a', 'bb'] } },
      { tool: tool('list'), args: { page: 1, done: true, letter: 'a', word: 'bb' }, value: null },
    ]);
    expect(impl.steps[1]).toEqual({ id: 'list_2', tool: { bundleID: BUNDLE, slug: 'list' }, args: { page: 1, done: true, letter: 'a', word: '${steps.list.result.items[1]}' } });
  });
});

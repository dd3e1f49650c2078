import { describe, expect, it } from 'vitest';
import type { RecipeImpl } from '../../../../../shared/schemas/recipe-impl.js';
import { argSchemaFrom, inputsOf, moveStep, newStep, renameInput, renameStep, stepIdFor } from './recipe-draft.js';
import { sourcesAt } from './sources.js';

const BUNDLE = '019a0000-0000-7000-8000-000000000001';
const impl: RecipeImpl = {
  steps: [
    { id: 'geo', tool: { bundleID: BUNDLE, slug: 'geocode' }, args: { city: '${inputs.city}' } },
    { id: 'weather', tool: { bundleID: BUNDLE, slug: 'weather' }, args: { lat: '${steps.geo.result.lat}', note: 'from ${ steps.geo.result.name } in ${inputs.city_name}' } },
  ],
  output: { where: '${steps.geo.result}', city: '${inputs.city}' },
};

describe('editing a recipe in the builder', () => {
  it('renaming a step or an input moves every reference with it, and leaves names that only start the same alone', () => {
    const renamed = renameInput(renameStep(impl, 'geo', 'place'), 'city', 'town');
    expect(renamed.steps.map((step) => step.id)).toEqual(['place', 'weather']);
    expect(renamed.steps[1]!.args).toEqual({ lat: '${steps.place.result.lat}', note: 'from ${ steps.place.result.name } in ${inputs.city_name}' });
    expect(renamed.output).toEqual({ where: '${steps.place.result}', city: '${inputs.town}' });
  });

  it('a new step takes what it can from inputs and earlier results by name, and gets a name of its own', () => {
    const sources = sourcesAt(impl, { type: 'object', properties: { city: { type: 'string' } } }, 2, { lastResults: { geo: { lat: 1, lon: 2 }, weather: { tempC: 5 } } });
    const step = newStep({ bundleID: BUNDLE, slug: 'geo', argSchema: { type: 'object', properties: { city: {}, lon: {}, tempC: {}, other: {} } } }, impl.steps, sources);
    expect(step).toEqual({ id: 'geo_2', tool: { bundleID: BUNDLE, slug: 'geo' }, args: { city: '${inputs.city}', lon: '${steps.geo.result.lon}', tempC: '${steps.weather.result.tempC}' } });
    expect(stepIdFor('2-day-forecast', [])).toBe('s_2_day_forecast');
  });

  it('moves steps, and reads and writes the inputs form as a JSON Schema', () => {
    expect(moveStep(impl.steps, 1, 0).map((step) => step.id)).toEqual(['weather', 'geo']);
    expect(moveStep(impl.steps, 1, 5).map((step) => step.id)).toEqual(['geo', 'weather']);
    const rows = [{ name: 'city', type: 'string', description: 'Where', required: true }, { name: 'days', type: 'integer', description: '', required: false, default: 3 }];
    const schema = argSchemaFrom(rows);
    expect(schema).toEqual({ type: 'object', properties: { city: { type: 'string', description: 'Where' }, days: { type: 'integer', default: 3 } }, required: ['city'], additionalProperties: false });
    expect(inputsOf(schema)).toEqual(rows);
  });
});

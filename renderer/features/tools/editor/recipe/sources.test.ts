import { describe, expect, it } from 'vitest';
import { sampleText, sourcesAt } from './sources.js';

const BUNDLE = '019a0000-0000-7000-8000-000000000001';
const steps = [
  { id: 'geo', tool: { bundleID: BUNDLE, slug: 'geocode' }, args: {} },
  { id: 'weather', tool: { bundleID: BUNDLE, slug: 'weather' }, args: {} },
];
const inputs = { type: 'object', properties: { city: { type: 'string' } } };

describe('what a recipe step can take its arguments from', () => {
  it('lists the inputs and the fields of earlier steps’ results with the values of the last trial run', () => {
    const sources = sourcesAt({ steps }, inputs, 1, { lastResults: { geo: { results: [{ lat: 59.9, 'place name': 'Oslo' }] } } });
    expect(sources.map((source) => [source.template, source.type, source.sample])).toEqual([
      ['${inputs.city}', 'string', undefined],
      ['${steps.geo.result}', 'object', { results: [{ lat: 59.9, 'place name': 'Oslo' }] }],
      ['${steps.geo.result.results}', 'array', [{ lat: 59.9, 'place name': 'Oslo' }]],
      ['${steps.geo.result.results[0]}', 'object', { lat: 59.9, 'place name': 'Oslo' }],
      ['${steps.geo.result.results[0].lat}', 'number', 59.9],
      ["${steps.geo.result.results[0]['place name']}", 'string', 'Oslo'],
    ]);
  });

  it('without a trial run, lists the fields its tool’s output schema names; a later step is never offered', () => {
    const outputSchemaOf = (index: number) => (index === 0 ? { type: 'object', properties: { lat: { type: 'number' } } } : undefined);
    expect(sourcesAt({ steps }, inputs, 2, { outputSchemaOf }).map((source) => source.template)).toEqual(['${inputs.city}', '${steps.geo.result}', '${steps.geo.result.lat}', '${steps.weather.result}']);
    expect(sourcesAt({ steps }, inputs, 0, { forEach: true }).map((source) => source.template)).toEqual(['${inputs.city}', '${item}', '${index}']);
  });

  it('shows a long sample cut short', () => {
    expect(sampleText('x'.repeat(100), 10)).toBe('"xxxxxxxx…');
  });
});

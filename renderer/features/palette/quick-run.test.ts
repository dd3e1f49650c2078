import { describe, expect, it } from 'vitest';
import { parseQuickRun, quickRunArgs, typedSlug } from './quick-run.js';

describe('the +slug quick run', () => {
  it('reads the slug and key=value pairs, quoted values included', () => {
    expect(parseQuickRun('+calculator expression="(2 + 3) * 4"')).toEqual({ slug: 'calculator', pairs: { expression: '(2 + 3) * 4' } });
    expect(parseQuickRun("+météo city='Saint Malo' days=3")).toEqual({ slug: 'météo', pairs: { city: 'Saint Malo', days: '3' } });
    expect(parseQuickRun('+current-time')).toEqual({ slug: 'current-time', pairs: {} });
    expect(parseQuickRun('+weather just words')).toBeNull();
    expect(parseQuickRun('hello +weather')).toBeNull();
    // MCP tools' names: what the suggestions complete must also run.
    expect(parseQuickRun('+get_sum a=2 b=40')).toEqual({ slug: 'get_sum', pairs: { a: '2', b: '40' } });
    expect(parseQuickRun('+files.read path=notes.md')).toEqual({ slug: 'files.read', pairs: { path: 'notes.md' } });
  });

  it('sees the name being typed after a leading "+", until a space ends it', () => {
    expect(typedSlug('+')).toBe('');
    expect(typedSlug('+get_s')).toBe('get_s');
    expect(typedSlug('+get_sum ')).toBeNull();
    expect(typedSlug('a+b')).toBeNull();
  });

  it('types values by the schema and names required arguments that are missing', () => {
    const schema = {
      type: 'object',
      properties: { city: { type: 'string' }, days: { type: 'integer' }, metric: { type: 'boolean' }, units: { type: 'string', default: 'c' } },
      required: ['city', 'days', 'units'],
    };
    expect(quickRunArgs(schema, { days: '3', metric: 'false' })).toEqual({ args: { days: 3, metric: false }, missing: ['city'] });
    expect(quickRunArgs(schema, { city: 'Oslo', days: 'soon' }).args.days).toBe('soon');
  });
});

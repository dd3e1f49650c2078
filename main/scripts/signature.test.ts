import { describe, expect, it } from 'vitest';
import { SCRIPT_EXAMPLES } from '../../shared/script-sandbox-types.js';
import { readScript } from './signature.js';

describe('a script’s default export read as a tool (TypeScript compiler)', () => {
  it('gives the arguments’ schema from a TypeScript signature: types, unions as enums, optional, defaults, doc texts; the answer’s from the return type', async () => {
    const source = `interface Place {
  /** The city's name. */
  city: string;
  country?: string;
}

/**
 * The weather at a place.
 * @param place Where.
 * @param units How to say the temperature.
 * @param days How many days ahead.
 * @integer
 */
export default async function weather(place: Place, units: 'metric' | 'imperial' = 'metric', days?: number, verbose = false, tags: string[] = []): Promise<{ temp: number; summary: string }> {
  return { temp: 21, summary: 'sunny' };
}`;
    const read = await readScript(source, 'typescript');
    expect(read.problems).toEqual([]);
    expect(read.parameters).toEqual(['place', 'units', 'days', 'verbose', 'tags']);
    expect(read.description).toBe('The weather at a place.');
    expect(read.argSchema).toEqual({
      type: 'object',
      properties: {
        place: { type: 'object', properties: { city: { type: 'string', description: "The city's name." }, country: { type: 'string' } }, required: ['city'], description: 'Where.' },
        units: { type: 'string', enum: ['metric', 'imperial'], description: 'How to say the temperature.', default: 'metric' },
        days: { type: 'number', description: 'How many days ahead.' },
        verbose: { type: 'boolean', default: false },
        tags: { type: 'array', items: { type: 'string' }, default: [] },
      },
      required: ['place'],
      additionalProperties: false,
    });
    expect(read.outputSchema).toEqual({ type: 'object', properties: { temp: { type: 'number' }, summary: { type: 'string' } }, required: ['temp', 'summary'] });
    // Types are gone from what runs.
    expect(read.code).toContain("export default async function weather(place, units = 'metric', days, verbose = false, tags = [])");
  });

  it('reads JSDoc types in JavaScript, an arrow function, and says what it cannot read', async () => {
    const read = await readScript('/**\n * Adds.\n * @param {number} a The first.\n * @param {number} [b] The second.\n */\nconst add = (a, b = 1) => a + b;\nexport default add;', 'javascript');
    expect(read.parameters).toEqual(['a', 'b']);
    expect(read.argSchema).toEqual({ type: 'object', properties: { a: { type: 'number', description: 'The first.' }, b: { type: 'number', description: 'The second.', default: 1 } }, required: ['a'], additionalProperties: false });
    expect((await readScript('export const x = 1;', 'javascript')).problems).toEqual([{ line: 1, message: expect.stringContaining('no default export function') as unknown }]);
    const broken = await readScript('export default function (a: string {\n  return a;\n}', 'typescript');
    expect(broken.problems.length).toBeGreaterThan(0);
    expect(broken.problems[0]!.line).toBe(1);
  });

  it('reads every example the editor starts from without a problem, each with its parameters described', async () => {
    for (const [name, source] of Object.entries(SCRIPT_EXAMPLES)) {
      const read = await readScript(source, 'typescript');
      expect(read.problems, name).toEqual([]);
      expect(read.parameters.length, name).toBeGreaterThan(0);
      expect(read.description, name).toBeTruthy();
    }
  });
});

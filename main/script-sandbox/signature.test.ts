import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { SCRIPT_EXAMPLES } from '../../shared/tools/script-sandbox-types.js';
import { aliasChain } from '../../testing/data/alias-chain.js';
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

  it('writes a type used in many places once under $defs: an alias chain that doubles at each level stays as small as its source, and validates what it means', async () => {
    for (const depth of [18, 22]) {
      const read = await readScript(aliasChain(depth), 'typescript');
      expect(read.problems).toEqual([]);
      // Expanded, depth 18 was 84 MB; written once per type, it grows with the source.
      expect(JSON.stringify(read.argSchema).length).toBeLessThan(200 * depth);
      const validate = new Ajv2020({ strict: false }).compile(read.argSchema);
      expect(validate({ x: nested(depth, 'leaf') })).toBe(true);
      expect(validate({ x: nested(depth, 7) })).toBe(false);
    }
  });

  it('writes a type used once in place, a small one wherever it is used, and a type that holds itself as a reference to itself', async () => {
    const read = await readScript(`interface Tree { label: string; children: Tree[] }
type City = 'Paris' | 'Rome';
/** Route. @param from Where from. */
export default function route(tree: Tree, from: City, to: City): Tree { return tree; }`, 'typescript');
    expect(read.argSchema).toMatchObject({
      properties: { tree: { $ref: '#/$defs/Tree' }, from: { type: 'string', enum: ['Paris', 'Rome'] }, to: { type: 'string', enum: ['Paris', 'Rome'] } },
      $defs: { Tree: { type: 'object', properties: { label: { type: 'string' }, children: { type: 'array', items: { $ref: '#/$defs/Tree' } } } } },
    });
    expect(read.outputSchema).toMatchObject({ $ref: '#/$defs/Tree', $defs: { Tree: { type: 'object' } } });
    const validate = new Ajv2020({ strict: false }).compile(read.argSchema);
    expect(validate({ tree: { label: 'a', children: [{ label: 'b', children: [] }] }, from: 'Paris', to: 'Rome' })).toBe(true);
    expect(validate({ tree: { label: 'a', children: [{ label: 2, children: [] }] }, from: 'Paris', to: 'Rome' })).toBe(false);
  });

  it('says so, instead of reading on, when types nest past what a schema may hold', async () => {
    const deep = `export default function f(x: ${'{ a: '.repeat(200)}string${' }'.repeat(200)}) { return 1; }`;
    const read = await readScript(deep, 'typescript');
    expect(read.problems).toEqual([{ line: 1, message: expect.stringContaining('nest deeper than') as unknown }]);
  });
});

function nested(depth: number, leaf: unknown): unknown {
  let value = leaf;
  for (let level = 0; level < depth; level++) value = { a: value, b: value };
  return value;
}

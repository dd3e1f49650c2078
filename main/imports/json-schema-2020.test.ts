import { describe, expect, it } from 'vitest';
import { schemaCache, toJsonSchema2020, toJsonSchema2020Within } from './json-schema-2020.js';

/** Schemas as the parser leaves them: one object for every use of a component. */
function fanOut(levels: number): Record<string, unknown> {
  let level: Record<string, unknown> = { type: 'string', nullable: true };
  for (let index = 0; index < levels; index++) level = { type: 'object', properties: { a: level, b: level } };
  return level;
}

function selfReferring(): Record<string, unknown> {
  const node: Record<string, unknown> = { type: 'object', properties: { name: { type: 'string', example: 'x' } } };
  (node.properties as Record<string, unknown>).children = { type: 'array', items: node };
  return node;
}

describe('converting the schemas of one description with a cache of the parts converted whole', () => {
  it('gives each schema exactly what converting it alone gives, in any order: shared parts, cycles, parts cut for the budget', () => {
    const customer = { type: 'object', properties: { id: { type: 'string' }, balance: { type: 'integer', minimum: 0, exclusiveMinimum: true } } };
    const tree = selfReferring();
    const big = fanOut(16); // 131,071 nodes written out: cut at the node limit
    const schemas = [
      { type: 'object', properties: { customer, list: { type: 'array', items: customer } } },
      big,
      { type: 'object', properties: { small: fanOut(4), again: big } },
      tree,
      { allOf: [customer, tree, (tree.properties as Record<string, unknown>).children] },
      fanOut(10),
    ];
    const alone = schemas.map((schema) => toJsonSchema2020(schema, 'openapi-3.0'));
    for (const order of [schemas.map((_, index) => index), schemas.map((_, index) => schemas.length - 1 - index)]) {
      const cache = schemaCache();
      for (const index of order) expect(toJsonSchema2020(schemas[index], 'openapi-3.0', cache)).toEqual(alone[index]);
    }
  });

  it('a part cut for one schema’s node budget is converted whole for another that has room for it', () => {
    const room = { type: 'object', properties: { p: fanOut(12) } }; // 8,193 nodes: fits the budget alone
    const crowded = { allOf: [fanOut(13), room] }; // 16,383 nodes first, then no room left for all of it
    const cache = schemaCache();
    expect(JSON.stringify(toJsonSchema2020(crowded, 'openapi-3.0', cache))).toContain('too large to carry over');
    const whole = toJsonSchema2020(room, 'openapi-3.0', cache);
    expect(JSON.stringify(whole)).not.toContain('too large to carry over');
    expect(whole).toEqual(toJsonSchema2020(room, 'openapi-3.0'));
  });

  it('a schema over its length limit is still refused, and what it left in the cache gives the same as converting alone', () => {
    const cache = schemaCache();
    const part = fanOut(6);
    const twelve = fanOut(12);
    expect(toJsonSchema2020Within({ type: 'object', properties: { x: twelve, part } }, 'openapi-3.0', 5_000, cache)).toBeUndefined();
    expect(toJsonSchema2020Within(part, 'openapi-3.0', 50_000, cache)).toEqual(toJsonSchema2020Within(part, 'openapi-3.0', 50_000));
    expect(toJsonSchema2020(twelve, 'openapi-3.0', cache)).toEqual(toJsonSchema2020(twelve, 'openapi-3.0'));
  });
});

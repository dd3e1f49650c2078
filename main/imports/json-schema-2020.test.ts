import { describe, expect, it } from 'vitest';
import { jsonStringLength, schemaCache, toJsonSchema2020, toJsonSchema2020Within } from './json-schema-2020.js';

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

  it('a schema met again within the same length gives the same answer, too long or not; another length is converted anew', () => {
    const cache = schemaCache();
    const answer = { type: 'object', properties: { id: { type: 'string' }, tree: fanOut(8) }, example: { id: 'x' } };
    const first = toJsonSchema2020Within(answer, 'openapi-3.0', 50_000, cache);
    expect(first).toEqual(toJsonSchema2020Within(answer, 'openapi-3.0', 50_000));
    expect(toJsonSchema2020Within(answer, 'openapi-3.0', 50_000, cache)).toBe(first);
    expect(toJsonSchema2020Within(answer, 'openapi-3.0', 1_000, cache)).toBeUndefined();
    expect(toJsonSchema2020Within(answer, 'openapi-3.0', 1_000, cache)).toBeUndefined();
    expect(toJsonSchema2020Within(answer, 'openapi-3.0', 50_000, cache)).toEqual(first);
  });
});

describe('the length limit of a converted schema', () => {
  const awkward = ['', 'plain', 'say "hi"', 'back\\slash', 'tab\tline\nfeed\r\b\f', '\u0000\u0001\u001f', '\u007f é ✓ \u2028', '😀 pair', 'lone \ud800 high', 'lone \udc00 low', '\udc00\ud800 reversed', 'end \ud83d'];

  it('counts every string as JSON.stringify writes it: quotes, escapes, controls, pairs and lone surrogates', () => {
    for (const text of awkward) expect(jsonStringLength(text), JSON.stringify(text)).toBe(JSON.stringify(text).length);
  });

  it('takes a schema exactly as long as the limit and refuses one character more, with escapes in keys and values, shared parts, cycles and cut parts', () => {
    const shared = { type: 'string', enum: awkward, pattern: '^a"b\\\\c$', description: 'a "quoted" \ud800 note' };
    const schemas: unknown[] = [
      { type: 'object', properties: Object.fromEntries(awkward.map((text, index) => [text || `empty${index}`, index % 2 ? shared : { type: 'integer', minimum: -0, maximum: 1e21, exclusiveMinimum: true }])) },
      { type: 'array', items: [shared, shared, true, false, {}], nullable: true, example: { k: [1, null, 'x"y'] } },
      selfReferring(),
      { type: 'object', properties: { big: fanOut(16) } },
      { $ref: '#/components/schemas/Left"Over' },
      true,
      false,
    ];
    for (const schema of schemas) {
      const exact = JSON.stringify(toJsonSchema2020(schema, 'openapi-3.0')).length;
      expect(toJsonSchema2020Within(schema, 'openapi-3.0', exact)).toEqual(toJsonSchema2020(schema, 'openapi-3.0'));
      expect(toJsonSchema2020Within(schema, 'openapi-3.0', exact - 1)).toBeUndefined();
      const cache = schemaCache();
      toJsonSchema2020(schema, 'openapi-3.0', cache);
      expect(toJsonSchema2020Within(schema, 'openapi-3.0', exact, cache)).toEqual(toJsonSchema2020(schema, 'openapi-3.0'));
      expect(toJsonSchema2020Within(schema, 'openapi-3.0', exact - 1, cache)).toBeUndefined();
    }
  });

  it('keeps a property named "__proto__" as a property and drops "__proto__" as a keyword, leaving every prototype alone', () => {
    const schema = JSON.parse('{"type":"object","__proto__":{"type":"string","pattern":"^x$"},"properties":{"__proto__":{"type":"integer","nullable":true}},"patternProperties":{"__proto__":{"type":"boolean"}}}') as Record<string, unknown>;
    const out = toJsonSchema2020(schema, 'openapi-3.0');
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
    expect(out.type).toBe('object');
    expect(out).not.toHaveProperty('pattern');
    expect(JSON.parse(JSON.stringify(out))).toEqual(JSON.parse('{"type":"object","properties":{"__proto__":{"type":["integer","null"]}},"patternProperties":{"__proto__":{"type":"boolean"}}}'));
    expect(toJsonSchema2020Within(schema, 'openapi-3.0', JSON.stringify(out).length)).toBeDefined();
  });
});

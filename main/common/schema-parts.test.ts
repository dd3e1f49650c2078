import { describe, expect, it } from 'vitest';
import { operations } from '../../shared/operations/index.js';
import { InvokeResultSchema } from '../../shared/schemas/invocation.js';
import { forFastChecks } from './schema-parts.js';
import { createAjv } from './validation.js';

const apart = (schema: object) => createAjv({ strict: true, allErrors: false, inlineRefs: false }).compile(forFastChecks(schema));
const whole = (schema: object) => createAjv({ strict: true, allErrors: false }).compile(schema);

describe('a result check arranged for speed', () => {
  it('takes and refuses what the whole schema does, deep inside its parts too', () => {
    const [split, inline] = [apart(InvokeResultSchema), whole(InvokeResultSchema)];
    const values = [
      { ok: true, value: 'Echo: bench', durationMs: 19, attempts: 1 },
      { ok: true, value: 1, durationMs: 1, attempts: 1, trace: [{ kind: 'note', text: 'x' }] },
      { ok: true, value: 1, durationMs: 1, attempts: 1, hooks: [{ event: 'PreToolUse', decision: 'allow' }] },
      { ok: true, value: 1, durationMs: 1, attempts: 1, hooks: [{ event: 'PreToolUse', handler: 'x', durationMs: 1, decision: 'allow' }] },
      { ok: true, value: 1, durationMs: 1, attempts: 1, logs: [{ level: 'log', text: 'hello' }] },
      { ok: true, value: 1, durationMs: 1, attempts: 1, logs: [{ level: 'shout', text: 'hello' }] },
      { ok: true, value: 1, durationMs: 1, attempts: 1, steps: [{ nonsense: true }] },
      { ok: true, value: 1, durationMs: 1, attempts: 1, rpc: [{}] },
      { ok: false, error: { code: 'network', message: 'down' }, durationMs: 1, attempts: 1 },
      { ok: false, error: { code: 'network' }, durationMs: 1, attempts: 1 },
      { ok: true, durationMs: 1, attempts: 1 },
    ];
    const verdicts = values.map((value) => split(value));
    expect(verdicts).toEqual(values.map((value) => inline(value)));
    // Both kinds occur: the check is not trivially true or false.
    expect(verdicts).toContain(true);
    expect(verdicts).toContain(false);
    // A hook run is one of the parts apart (its check is called, and what it finds is said with its path).
    expect(JSON.stringify(forFastChecks(InvokeResultSchema))).toContain('"hooks":{"maxItems":400,"type":"array","items":{"$ref"');
    expect(split({ ok: true, value: 1, durationMs: 1, attempts: 1, hooks: [{ event: 'PreToolUse', handler: 'x', durationMs: 1, decision: 'maybe' }] })).toBe(false);
    expect(split.errors?.[0]?.instancePath).toBe('/hooks/0/decision');
  });

  it('moves the large parts out, once each, and nothing out of a schema with an $id of its own', () => {
    const split = forFastChecks(InvokeResultSchema) as { $defs?: Record<string, unknown> };
    expect(Object.keys(split.$defs ?? {}).length).toBeGreaterThan(0);
    const shared = { type: 'object', properties: { text: { type: 'string', description: 'x'.repeat(500) } } };
    const twice = forFastChecks({ type: 'object', properties: { a: shared, b: shared } }) as { properties: Record<string, { $ref: string }>; $defs: object };
    expect(twice.properties.a?.$ref).toBe(twice.properties.b?.$ref);
    expect(Object.keys(twice.$defs)).toHaveLength(1);
    const owned = { $id: 'Owned', type: 'object', properties: { inner: shared } };
    const kept = forFastChecks({ type: 'object', properties: { owned } }) as { $defs?: object; properties: { owned: { $id: string; properties: Record<string, unknown> } } };
    expect(kept.$defs).toBeUndefined();
    expect(kept.properties.owned.$id).toBe('Owned');
    expect(kept.properties.owned.properties.inner).toEqual(shared);
  });

  it('checks a union branch’s constants first, and still takes and refuses what the whole schema does', () => {
    const branch = (kind: string) => ({
      type: 'object',
      properties: { at: { type: 'string', format: 'date-time' }, name: { type: 'string', maxLength: 5 }, kind: { const: kind, type: 'string' } },
      required: ['at', 'name', 'kind'],
      additionalProperties: false,
    });
    const union = { anyOf: [branch('local'), branch('http')] };
    const arranged = forFastChecks(union) as { anyOf: { properties: object }[] };
    expect(arranged.anyOf.map((one) => Object.keys(one.properties)[0])).toEqual(['kind', 'kind']);
    const [fast, inline] = [apart(union), whole(union)];
    const values = [
      { at: '2026-11-30T10:00:00Z', name: 'a', kind: 'http' },
      { at: '2026-11-30T10:00:00Z', name: 'a', kind: 'local' },
      { at: '2026-11-30T10:00:00Z', name: 'a', kind: 'mcp' },
      { at: 'yesterday', name: 'a', kind: 'http' },
      { at: '2026-11-30T10:00:00Z', name: 'toolong', kind: 'http' },
      { at: '2026-11-30T10:00:00Z', name: 'a', kind: 'http', more: 1 },
    ];
    expect(values.map((value) => fast(value))).toEqual([true, true, false, false, false, false]);
    expect(values.map((value) => fast(value))).toEqual(values.map((value) => inline(value)));
  });

  it('compiles for every operation', () => {
    for (const [name, definition] of Object.entries(operations)) expect(() => apart(definition.result), name).not.toThrow();
  });
});

import { describe, expect, it } from 'vitest';
import { newID } from '../../testing/data/fixtures.js';
import { startTestCore } from '../../testing/harness/test-core.js';

/** An object schema nested `levels` deep: { type: object, properties: { a: { … } } }. */
function nestedSchema(levels: number): Record<string, unknown> {
  let schema: Record<string, unknown> = { type: 'string' };
  for (let level = 0; level < levels; level++) schema = { type: 'object', properties: { a: schema } };
  return schema;
}

describe('a tool’s schemas stay within the limits every tool keeps', () => {
  it('a save past them is schema_too_large with where and what to do; validate says the same; one within them is written', async () => {
    const { call, failure } = await startTestCore();
    const bundleID = newID();
    await call('bundles.put', { bundleID, slug: 'big', displayName: 'Big' });
    const tool = (argSchema: Record<string, unknown>, outputSchema?: Record<string, unknown>) => ({
      displayName: 'Big',
      type: 'http' as const,
      argSchema,
      ...(outputSchema ? { outputSchema } : {}),
      impl: { method: 'GET' as const, urlTemplate: 'https://api.example.com/x' },
    });
    const deep = await failure('tools.put', { bundleID, toolSlug: 'deep', version: 'v1', tool: tool(nestedSchema(40)) });
    expect([deep.code, deep.httpStatus]).toEqual(['schema_too_large', 422]);
    expect(deep.details).toEqual({ issues: [{ path: '/argSchema', message: expect.stringMatching(/^nests deeper than 64 levels; .*\$defs/) as unknown }] });
    const long = await failure('tools.put', { bundleID, toolSlug: 'long', version: 'v1', tool: tool({ type: 'object' }, { type: 'string', description: 'x'.repeat(600 * 1024) }) });
    expect(long.code).toBe('schema_too_large');
    expect(long.message).toContain('/outputSchema is larger than 512 KB as JSON');
    expect(await call('tools.validate', { bundleID, toolSlug: 'deep', version: 'v1', tool: tool(nestedSchema(40)) })).toEqual({ issues: [{ path: '/argSchema', message: expect.stringContaining('nests deeper than 64 levels') as unknown }] });
    // 30 levels of properties (60 of JSON): within the limits.
    await call('tools.put', { bundleID, toolSlug: 'fits', version: 'v1', tool: tool({ type: 'object', properties: { a: nestedSchema(30) } }) });
  });
});

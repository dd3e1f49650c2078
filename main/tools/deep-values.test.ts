import { describe, expect, it } from 'vitest';
import { newID } from '../../testing/data/fixtures.js';
import { startTestCore } from '../../testing/harness/test-core.js';

/** Security round four: values nested thousands deep are refused with a code, never a stack overflow answered as `internal`. */
describe('values nested past what the core carries', () => {
  it('a script returning an object 5,000 deep fails as output_invalid, saying where', async () => {
    const { call } = await startTestCore();
    const bundleID = newID();
    await call('bundles.put', { bundleID, slug: 'deep', displayName: 'Deep' });
    const source = 'export default function deep() { let v = 1; for (let i = 0; i < 5000; i++) v = { v }; return v; }';
    await call('tools.put', { bundleID, toolSlug: 'deep', version: 'v1', tool: { displayName: 'Deep', type: 'script', argSchema: {}, impl: { language: 'javascript', source } } });
    const result = await call('tools.invoke', { bundleID, toolSlug: 'deep', version: 'v1', args: {} });
    expect(result.ok).toBe(false);
    expect(!result.ok && result.error).toMatchObject({ code: 'output_invalid', message: expect.stringContaining('nested more than 128 levels deep') as unknown });
  });

  it('a recipe whose path has 5,000 segments, or 5,000 nested brackets, answers with a code', async () => {
    const { call, failure } = await startTestCore();
    const bundleID = newID();
    await call('bundles.put', { bundleID, slug: 'deep', displayName: 'Deep' });
    await call('tools.put', { bundleID, toolSlug: 'flat', version: 'v1', tool: { displayName: 'Flat', type: 'script', argSchema: {}, impl: { language: 'javascript', source: 'export default function flat() { return {}; }' } } });
    const recipe = (output: string) => ({ displayName: 'R', type: 'recipe' as const, argSchema: { type: 'object', properties: {} }, impl: { steps: [{ id: 's', tool: { bundleID, slug: 'flat' }, args: {} }], output } });
    for (const [slug, segment] of [['dots', '.a'], ['indexes', '[0]']] as const) {
      await call('tools.put', { bundleID, toolSlug: slug, version: 'v1', tool: recipe(`\${steps.s.result${segment.repeat(5000)}}`) });
      const result = await call('tools.invoke', { bundleID, toolSlug: slug, version: 'v1', args: {} });
      expect(!result.ok && result.error.code).toBe('recipe_missing_value');
    }
    const nested = await failure('tools.put', { bundleID, toolSlug: 'nested', version: 'v1', tool: recipe(`\${steps.s.result[?${'('.repeat(5000)}@${')'.repeat(5000)}]}`) });
    expect(nested.code).toBe('invalid_params');
  });

  it('a Postman request whose body is nested 20,000 deep is previewed as skipped, with the reason', async () => {
    const { call } = await startTestCore();
    let raw = '1';
    for (let level = 0; level < 20_000; level++) raw = `{"a":${raw}}`;
    const collection = {
      info: { name: 'Deep', schema: 'https://schema.getpostman.com/json/collection/v2.1.0/collection.json' },
      item: [{ name: 'Post', request: { method: 'POST', url: 'https://api.example.com/x', body: { mode: 'raw', raw } } }],
    };
    const preview = await call('imports.openapiPreview', { source: { text: JSON.stringify(collection) } });
    expect(preview.operations).toEqual([expect.objectContaining({ slug: 'post', skipped: expect.stringContaining('nests deeper than 64 levels') as unknown })]);
  });
});

import { describe, expect, it } from 'vitest';
import { newID } from '../../../testing/data/fixtures.js';
import { startTestCore } from '../../../testing/harness/test-core.js';

describe('a recipe’s JSONPath patterns (security round four)', () => {
  it('search() with a backtracking pattern over a hostile result answers at once, and filters as written', async () => {
    const { call } = await startTestCore();
    const bundleID = newID();
    await call('bundles.put', { bundleID, slug: 'words', displayName: 'Words' });
    await call('tools.put', {
      bundleID,
      toolSlug: 'echo',
      version: 'v1',
      tool: { displayName: 'Echo', type: 'script', argSchema: {}, impl: { language: 'typescript', source: 'export default function echo(words: string[]) { return words; }' } },
    });
    const argSchema = { type: 'object', properties: { words: { type: 'array', items: { type: 'string' } } }, required: ['words'] };
    await call('tools.put', {
      bundleID,
      toolSlug: 'only-as',
      version: 'v1',
      tool: {
        displayName: 'Only a’s',
        type: 'recipe',
        argSchema,
        impl: { steps: [{ id: 'echo', tool: { bundleID, slug: 'echo' }, args: { words: '${inputs.words}' } }], output: "${steps.echo.result[?search(@, '^(a+)+$')]}" },
      },
    });
    // On JavaScript's RegExp, 27 "a"s and a "!" took 7 s here, doubling with each "a".
    const result = await call('tools.invoke', { bundleID, toolSlug: 'only-as', version: 'v1', args: { words: [`${'a'.repeat(40)}!`, 'aaa', 'b'] } });
    expect(result).toMatchObject({ ok: true, value: ['aaa'] });
  });
});

import { describe, expect, it } from 'vitest';
import { newID } from '../../testing/data/fixtures.js';
import { startTestCore } from '../../testing/harness/test-core.js';

describe('bad input gets a 4xx with a sentence, never internal', () => {
  it('a key named __proto__ anywhere in the params is refused where it enters', async () => {
    const { failure, call } = await startTestCore();
    const refused = await failure('mcpServers.import', JSON.parse('{"mcpServers":{"__proto__":{"command":"node"}}}'));
    expect([refused.code, refused.message]).toEqual(['invalid_params', 'Invalid parameters for mcpServers.import: /mcpServers/__proto__ is named __proto__, which no name may be.']);
    expect((await call('mcpServers.list', {})).servers).toEqual([]);
  });

  it('removing the folder of a bundle that has none is not_found', async () => {
    const { failure } = await startTestCore();
    const refused = await failure('bundles.removeFolder', { bundleID: newID() });
    expect([refused.code, refused.httpStatus]).toEqual(['not_found', 404]);
    expect(refused.message).toContain('nothing to remove');
  });
});

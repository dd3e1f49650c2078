import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { newID } from '../../testing/data/fixtures.js';
import { startTestCore } from '../../testing/harness/test-core.js';

describe('the Tools screen’s search over a real API imported whole (GitHub’s, 1,200 tools)', () => {
  it('puts the tool named as typed first: "create issue" is "Create an issue", not one of the dozens that mention both words', async () => {
    const core = await startTestCore();
    const text = await readFile(path.join(import.meta.dirname, '../../node_modules/@octokit/openapi/generated/api.github.com.json'), 'utf8');
    const plan = await core.call('imports.openapiPreview', { source: { text } });
    const operations = plan.operations.filter((operation) => operation.tool).map((operation) => operation.key);
    await core.call('imports.openapiApply', { previewId: plan.previewId, bundleID: newID(), operations });
    const first = async (q: string) => (await core.call('tools.search', { q, pageSize: 5 })).tools[0]?.slug;
    expect(await first('create issue')).toBe('issues-create');
    expect(await first('list pull requests')).toBe('pulls-list');
    expect(await first('delete repository')).toBe('repos-delete');
    expect(await first('Get a repository')).toBe('repos-get');
  }, 60_000);
});

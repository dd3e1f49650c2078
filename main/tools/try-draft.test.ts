import { describe, expect, it } from 'vitest';
import { expectOk, invokeHarness } from '../../testing/harness/invoke-harness.js';
import { json, startLoopbackServer } from '../../testing/harness/loopback-server.js';

describe('tools.try', () => {
  it('runs an unsaved draft without storing it or counting usage', async () => {
    const server = await startLoopbackServer({ '/draft': (request, response) => json(response, 200, { url: request.url }) });
    const subject = await invokeHarness([server.host]);
    const draft = {
      displayName: 'Draft',
      type: 'http',
      argSchema: { type: 'object', properties: { q: { type: 'string' } } },
      impl: { method: 'GET', urlTemplate: `${server.base}/draft`, query: { q: '${q}' }, extractExpr: '$.url' },
    };
    const result = await subject.call('tools.try', { bundleID: subject.bundleID, tool: draft, args: { q: 'x y' }, trace: true });
    expect(expectOk(result).value).toBe('/draft?q=x+y');
    expect(result.trace).toHaveLength(1);
    expect((await subject.call('tools.list', { bundleIDs: [subject.bundleID], includeDisabled: true })).tools).toEqual([]);
  });

  it('refuses an invalid draft with its problems', async () => {
    const subject = await invokeHarness([]);
    const error = await subject.failure('tools.try', { bundleID: subject.bundleID, tool: { displayName: 'Bad', type: 'http', argSchema: { type: 'object' }, impl: { method: 'GET' } } });
    expect(error.code).toBe('invalid_params');
    expect(JSON.stringify(error.details)).toContain('urlTemplate');
  });
});

describe('tools.validate', () => {
  it('says every problem of a half-written draft at its field, in words: an empty name does not hide a broken URL', async () => {
    const subject = await invokeHarness([]);
    const draft = { displayName: '', type: 'http', argSchema: { type: 'object' }, impl: { method: 'GET', urlTemplate: 'htps://api.example.com' } };
    const { issues } = await subject.call('tools.validate', { bundleID: subject.bundleID, toolSlug: 'city weather', tool: draft });
    expect(issues).toEqual([
      { path: '/slug', message: 'Use letters, digits and "-" only, up to 64 characters.' },
      { path: '/displayName', message: 'Give it a name people will recognise (up to 200 characters).' },
      { path: '/impl/urlTemplate', message: "Start the URL with http:// or https://, or with / to go on from the bundle's base URL." },
    ]);
  });
});

describe('tools.checkArgs', () => {
  it('lists what is wrong with arguments by JSON pointer, without running the tool', async () => {
    const server = await startLoopbackServer({ '/never': (_request, response) => json(response, 200, {}) });
    const subject = await invokeHarness([server.host]);
    await subject.call('tools.put', {
      bundleID: subject.bundleID,
      toolSlug: 'pick',
      version: 'v1',
      tool: {
        displayName: 'Pick',
        type: 'http',
        argSchema: { type: 'object', properties: { count: { type: 'integer', minimum: 1 } }, required: ['count'] },
        impl: { method: 'GET', urlTemplate: `${server.base}/never`, query: { n: '${count}' }, headers: { 'X-Key': '${secret.PICK_KEY}' } },
      },
    });
    await subject.call('secrets.put', { name: 'PICK_KEY', value: 'pick-secret-9' });
    const address = { bundleID: subject.bundleID, toolSlug: 'pick', version: 'v1' };
    // Valid arguments come back with the request they would make, the secret as •••: what an approval shows after an edit.
    expect(await subject.call('tools.checkArgs', { ...address, args: { count: 2 } })).toEqual({
      issues: [],
      preview: { method: 'GET', url: `${server.base}/never?n=2`, headers: expect.objectContaining({ 'x-key': '•••' }) as unknown },
    });
    const { issues } = await subject.call('tools.checkArgs', { ...address, args: { count: 0 } });
    expect(issues).toEqual([{ path: '/count', message: 'must be 1 or more' }]);
    // A missing property is reported at its own pointer, where a form shows it.
    expect((await subject.call('tools.checkArgs', { ...address, args: {} })).issues).toEqual([{ path: '/count', message: 'is required' }]);
    expect(server.seen).toHaveLength(0);
  });
});

import { json, startLoopbackServer } from './loopback-server.js';
import type { TestCore } from './test-core.js';

/**
 * An API that takes as long as it is told (`?ms=`), on the core's own manual clock, and fails when asked (`?fail=`):
 * calls with exact times, whatever the machine does. With the `work` tool of a bundle that calls it.
 */
export async function timedApi(subject: TestCore, clock: { advance(ms: number): void }, bundleID: string) {
  const api = await startLoopbackServer({
    '/work': (request, response) => {
      const url = new URL(request.url ?? '/', 'http://x');
      clock.advance(Number(url.searchParams.get('ms')));
      json(response, url.searchParams.get('fail') ? 503 : 200, { done: true });
    },
  });
  await subject.call('settings.patch', { allowedHosts: [api.host] });
  await subject.call('bundles.put', { bundleID, slug: 'jobs', displayName: 'Jobs' });
  const argSchema = { type: 'object', properties: { ms: { type: 'integer' }, fail: { type: 'string' } }, required: ['ms'] };
  await subject.call('tools.put', { bundleID, toolSlug: 'work', version: 'v1', tool: { displayName: 'Work', description: 'Does some work.', type: 'http', argSchema, impl: { method: 'GET', urlTemplate: `${api.base}/work`, query: { ms: '${ms}', fail: '${fail}' } } } });
  const work = (ms: number, fail?: string) => subject.call('tools.invoke', { bundleID, toolSlug: 'work', version: 'v1', args: { ms, ...(fail ? { fail } : {}) } });
  return { api, work };
}

import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { newID } from '../../../testing/data/fixtures.js';
import { startTestCore } from '../../../testing/harness/test-core.js';
import { tempDirForTest } from '../../../testing/harness/test-temp-dir.js';

/**
 * A signature worker that reads every script as itself (its source is the code) and ends, as a worker stopped past
 * its budget does, on the `failOn`th read of all the workers it is started as (they count in a file).
 */
function workerFailingOnRead(counter: string, failOn: number): URL {
  const source = `import { parentPort } from 'node:worker_threads';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
const counter = ${JSON.stringify(counter)};
parentPort.on('message', (request) => {
  const reads = (existsSync(counter) ? Number(readFileSync(counter, 'utf8')) : 0) + 1;
  writeFileSync(counter, String(reads));
  if (reads === ${failOn}) process.exit(3);
  parentPort.postMessage({ id: request.id, ok: true, read: { code: request.source, parameters: [], argSchema: { type: 'object', properties: {} }, problems: [] } });
});
parentPort.postMessage({ ready: true });`;
  return new URL(`data:text/javascript,${encodeURIComponent(source)}`);
}

describe('a script whose read was stopped', () => {
  it('fails that call saying why, and the next call reads it again instead of failing the same way until a restart', async () => {
    const folder = await tempDirForTest();
    // Read 1 is the save's; read 2, the first call's, is stopped; read 3 is the second call's.
    const { call } = await startTestCore({ signatureWorker: workerFailingOnRead(path.join(folder, 'reads'), 2) });
    const bundleID = newID();
    await call('bundles.put', { bundleID, slug: 'scripts', displayName: 'Scripts' });
    await call('tools.put', { bundleID, toolSlug: 'seven', version: 'v1', tool: { displayName: 'Seven', type: 'script', argSchema: {}, impl: { language: 'javascript', source: 'export default function seven() { return 7; }' } } });
    const first = await call('tools.invoke', { bundleID, toolSlug: 'seven', version: 'v1', args: {} });
    expect(!first.ok && first.error).toMatchObject({ code: 'script_error', message: expect.stringContaining('the reader was stopped') as unknown });
    expect(await call('tools.invoke', { bundleID, toolSlug: 'seven', version: 'v1', args: {} })).toMatchObject({ ok: true, value: 7 });
  });
});

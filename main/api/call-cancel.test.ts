import { describe, expect, it, vi } from 'vitest';
import { newID } from '../../testing/data/fixtures.js';
import { startLoopbackServer } from '../../testing/harness/loopback-server.js';
import { startTestCore } from '../../testing/harness/test-core.js';

describe('calls.cancel', () => {
  it('aborts a named call in the core, as IPC needs: the tool stops and says cancelled', async () => {
    const server = await startLoopbackServer({
      '/slow': () => new Promise<void>(() => undefined),
    });
    const { core, call } = await startTestCore();
    await call('settings.patch', { allowedHosts: [server.host] });
    const bundleID = newID();
    await call('bundles.put', { bundleID, slug: 'b', displayName: 'B' });
    await call('tools.put', {
      bundleID,
      toolSlug: 'slow',
      version: 'v1',
      tool: { displayName: 'Slow', type: 'http', argSchema: { type: 'object' }, impl: { method: 'GET', urlTemplate: `${server.base}/slow`, timeoutMs: 60_000 } },
    });
    const callId = 'tester-0123456789';
    const running = core.dispatcher.call('tools.invoke', { bundleID, toolSlug: 'slow', version: 'v1', args: {} }, { transport: 'ipc', callId });
    await vi.waitFor(() => expect(server.seen).toHaveLength(1));

    expect(await call('calls.cancel', { callId })).toEqual({ cancelled: true });
    const result = (await running) as { ok: boolean; error?: { code: string } };
    expect(result).toMatchObject({ ok: false, error: { code: 'cancelled' } });
    // Once it ended, the id means nothing any more.
    expect(await call('calls.cancel', { callId })).toEqual({ cancelled: false });
  });
});

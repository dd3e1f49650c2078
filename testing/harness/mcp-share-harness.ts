import type { Clock } from '../../main/common/clock.js';
import { vi } from 'vitest';
import { freePort } from '../cores/free-port.js';
import { newID } from '../data/fixtures.js';
import { json, startLoopbackServer } from './loopback-server.js';
import { startTestCore } from './test-core.js';

/**
 * A core with its MCP server on and a bundle "Weather" of two HTTP tools
 * against a loopback server, shared: "forecast" runs at once, "clear-alerts"
 * asks the person first.
 */
export async function sharingCore(options: { windowOpen?: () => boolean; waitingNoticeMs?: number; clock?: Clock } = {}) {
  const weather = await startLoopbackServer({
    '/forecast': (request, response) => json(response, 200, { city: new URL(request.url ?? '/', 'http://x').searchParams.get('city'), sky: 'clear' }),
    '/alerts': (_request, response) => json(response, 200, { deleted: true }),
  });
  const mcpShare = { listen: true, ...(options.waitingNoticeMs ? { waitingNoticeMs: options.waitingNoticeMs } : {}) };
  const subject = await startTestCore({ mcpShare, windowOpen: options.windowOpen ?? (() => true), ...(options.clock ? { clock: options.clock } : {}) });
  await subject.call('settings.patch', { allowedHosts: [weather.host] });
  const bundleID = newID();
  await subject.call('bundles.put', { bundleID, slug: 'weather', displayName: 'Weather' });
  const cityArgs = { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] };
  await subject.call('tools.put', {
    bundleID,
    toolSlug: 'forecast',
    version: 'v1',
    tool: { displayName: 'City forecast', description: 'The sky over a city.', type: 'http', argSchema: cityArgs, impl: { method: 'GET', urlTemplate: `${weather.base}/forecast`, query: { city: '${city}' } } },
  });
  await subject.call('tools.put', {
    bundleID,
    toolSlug: 'clear-alerts',
    version: 'v1',
    tool: { displayName: 'Clear alerts', type: 'http', requiresApproval: true, argSchema: cityArgs, impl: { method: 'DELETE', urlTemplate: `${weather.base}/alerts` } },
  });
  const port = await freePort();
  await subject.call('mcpShare.configure', { enabled: true, port });
  await subject.call('mcpShare.shareBundle', { bundleID, shared: true });
  const { url, token } = await subject.call('mcpShare.connection', {});
  return { subject, bundleID, url, token, port, weather };
}

/** Reads until `ok` holds (5 s at most): for what another process or a background write makes true. */
export async function waitFor<T>(read: () => Promise<T>, ok: (value: T) => boolean): Promise<T> {
  return vi.waitFor(
    async () => {
      const value = await read();
      if (!ok(value)) throw new Error('the condition does not hold yet');
      return value;
    },
    { timeout: 5_000, interval: 20 },
  );
}

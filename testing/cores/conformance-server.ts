// The server under the official MCP conformance suite's server scenarios:
// Toolbelt's own MCP server, sharing a bundle of two tools as a person
// would, on a fresh data folder. Prints one line, {"url","token"}, and runs
// until it is told to stop (SIGTERM) or its stdin closes.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { v7 as uuidv7 } from 'uuid';
import { freePort } from './free-port.js';
import { startScratchCore } from './scratch-core.js';

async function main(): Promise<void> {
  // The API the shared tools call: a loopback server in this process.
  const api = createServer((request, response) => {
    response.writeHead(200, { 'Content-Type': 'application/json' });
    response.end(JSON.stringify({ city: new URL(request.url ?? '/', 'http://api').searchParams.get('city'), sky: 'clear' }));
  });
  await new Promise<void>((resolve) => api.listen(0, '127.0.0.1', resolve));
  const apiBase = `http://127.0.0.1:${(api.address() as AddressInfo).port}`;

  const { call, close } = await startScratchCore('conformance-server', { mcpShare: { listen: true }, windowOpen: () => true });
  const bundleID = uuidv7();
  await call('settings.patch', { allowedHosts: ['127.0.0.1'] });
  await call('bundles.put', { bundleID, slug: 'weather', displayName: 'Weather' });
  const cityArgs = { type: 'object', properties: { city: { type: 'string', description: 'The city' } }, required: ['city'] };
  for (const [slug, displayName] of [
    ['forecast', 'City forecast'],
    ['sky', 'Sky now'],
  ]) {
    await call('tools.put', {
      bundleID,
      toolSlug: slug,
      version: 'v1',
      tool: { displayName, description: `${displayName} of a city.`, type: 'http', argSchema: cityArgs, impl: { method: 'GET', urlTemplate: `${apiBase}/${slug}`, query: { city: '${city}' } } },
    });
  }
  await call('mcpShare.configure', { enabled: true, port: await freePort() });
  await call('mcpShare.shareBundle', { bundleID, shared: true });
  const { url, token } = (await call('mcpShare.connection', {})) as { url: string; token: string };
  process.stdout.write(`${JSON.stringify({ url, token })}\n`);

  await new Promise<void>((resolve) => {
    process.once('SIGTERM', resolve);
    process.stdin.once('close', resolve);
    process.stdin.resume();
  });
  await close();
  api.close();
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error instanceof Error ? error.stack : error);
    process.exit(1);
  },
);

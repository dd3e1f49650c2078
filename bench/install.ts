// Installing MCP servers (#52): a 20 MB bundle's preview, and a registry search answered from what was kept, each
// against the least the same work costs, in one run.
import { readFile } from 'node:fs/promises';
import { buildMcpBundle } from '../testing/mcpb/build-bundle.js';
import { makeTempDir } from '../testing/cores/temp-dir.js';
import { startRegistryServer } from '../testing/servers/mcp-registry-server.js';
import { startBenchCore } from './bench-core.js';
import { percentile, report, sized, timeInTurns, type Figure } from './stats.js';

export const BUNDLE_BYTES = 20 * 1024 * 1024;

export async function benchInstall(): Promise<boolean> {
  const figures: Figure[] = [];
  const temp = await makeTempDir('toolbelt-bench-install-');
  const { call, close } = await startBenchCore('install');
  try {
    // The preview of a 20 MB bundle through the operation table, against reading the same file and decoding its base64
    // (what any preview must do before it can look inside).
    const { file } = await buildMcpBundle(temp.dir, { ballastBytes: sized(BUNDLE_BYTES, 1) });
    const dataBase64 = (await readFile(file)).toString('base64');
    const preview = () => call('mcpb.preview', { file: { name: 'big.mcpb', dataBase64 } });
    const decode = async () => Buffer.from((await readFile(file)).toString('base64'), 'base64').length;
    const previews = await timeInTurns(sized(10, 2), 1, preview, decode);
    figures.push({ section: 'install', name: `preview a ${Math.round(dataBase64.length * 0.75 / 1024 / 1024)} MB bundle (p50)`, ours: percentile(previews.ours, 50), limit: percentile(previews.limit, 50), limitName: 'read + base64 of the same file', goalAbsoluteMs: 1000 });

    // A registry page the core has kept, against the cheapest operation there is (the same table, no work).
    const registry = await startRegistryServer(Array.from({ length: 30 }, (_, index) => ({ server: { name: `io.example/server-${index}`, description: `Server ${index}`, version: '1.0.0', remotes: [{ type: 'streamable-http', url: `https://mcp${index}.example.com/mcp` }] } })));
    try {
      await call('settings.patch', { mcpRegistries: [registry.base] });
      const search = () => call('mcpRegistry.search', { registry: registry.base, search: 'server', limit: 30 });
      await search();
      const started = registry.listRequests();
      const searches = await timeInTurns(sized(500, 10), sized(50, 2), search, () => call('app.health', {}));
      if (registry.listRequests() !== started) throw new Error('the kept page was asked for again');
      figures.push({ section: 'install', name: 'registry search from the cache (p50)', ours: percentile(searches.ours, 50), limit: percentile(searches.limit, 50), limitName: 'app.health through the same table', goalAbsoluteMs: 16 });
    } finally {
      await registry.close();
    }
  } finally {
    await close();
    await temp.cleanup();
  }
  return figures.map(report).every(Boolean);
}

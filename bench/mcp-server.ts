// Toolbelt as an MCP server: a tool call through our Streamable HTTP endpoint
// with the official SDK client, against the same tools.invoke made through
// the browser host's HTTP API (one loopback round trip each), in one run.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { startHttpHost } from '../main/server/http-host.js';
import { silentLogger } from '../main/log.js';
import { requestScopedFetch } from '../main/mcp/request-scoped-fetch.js';
import { freePort } from '../main/testing/free-port.js';
import { startBenchCore } from './bench-core.js';
import { percentile, report, timeInTurns, type Figure } from './stats.js';

const CORE = '01a2008d-7400-7000-8000-03e7f090115c';
const TOKEN = 'bench-token-0123456789abcdef';
const ROUNDS = 2_000;
const WARM_UP_ROUNDS = 500;

export async function benchMcpServer(): Promise<boolean> {
  const { core, call, close } = await startBenchCore('mcp-server', { mcpShare: { listen: true } });
  await call('mcpShare.configure', { enabled: true, port: await freePort() });
  await call('mcpShare.shareBundle', { bundleID: CORE, shared: true });
  const { url, token } = (await call('mcpShare.connection', {})) as { url: string; token: string };
  const client = new Client({ name: 'bench', version: '1' });
  // A client that does not pile listeners on its connection's signal (the SDK's own transport does: see main/mcp/request-scoped-fetch.ts).
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { fetch: requestScopedFetch(), requestInit: { headers: { Authorization: `Bearer ${token}` } } }));
  const host = await startHttpHost({ core, token: TOKEN, port: 0, rendererDir: null, log: silentLogger });
  const invokeUrl = `http://127.0.0.1:${host.port}/api/tools/bundles/${CORE}/tools/calculator/version/v1/invoke`;

  const args = { expression: '(2 + 3) * 4' };
  const overMcp = () => client.callTool({ name: 'calculator', arguments: args });
  const overApi = async () =>
    (await fetch(invokeUrl, { method: 'POST', headers: { Authorization: `Bearer ${TOKEN}`, 'Content-Type': 'application/json' }, body: JSON.stringify({ args }) })).json();
  const samples = await timeInTurns(ROUNDS, WARM_UP_ROUNDS, overMcp, overApi);
  const figures: Figure[] = [
    { section: 'mcp-server', name: 'tool call p50 (calculator, HTTP)', ours: percentile(samples.ours, 50), limit: percentile(samples.limit, 50), limitName: 'tools.invoke over the browser host API', goalRatio: 1.3 },
  ];
  const met = figures.map(report);
  await client.close();
  await host.close();
  await close();
  return met.every(Boolean);
}

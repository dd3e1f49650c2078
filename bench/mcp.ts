// MCP: a tool call through Toolbelt against the same call made with the bare
// SDK client (on the same connection, and for reference on its own server
// process), and listing 500 tools from 5 servers against 5 bare clients doing
// the same, all in one run on this machine.
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { PROJECT_ROOT as ROOT } from '../testing/cores/spawned-host.js';
import { startBenchCore } from './bench-core.js';
import { percentile, report, timeInTurns, type Figure, sized } from './stats.js';

const EVERYTHING = { command: process.execPath, args: [path.join(ROOT, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js'), 'stdio'] };
const MANY = (prefix: string) => ({ command: process.execPath, args: [path.join(ROOT, 'bench/fixtures/many-tools-server.mjs')], env: { TOOL_COUNT: '100', TOOL_PREFIX: prefix } });
const ROUNDS = sized(2_000, 3);
const WARM_UP_ROUNDS = sized(1_000);

async function bareClient(server: { command: string; args: string[]; env?: Record<string, string> }): Promise<Client> {
  const client = new Client({ name: 'bench', version: '1' });
  await client.connect(new StdioClientTransport({ ...server, env: { ...(process.env as Record<string, string>), ...server.env }, stderr: 'ignore' }));
  return client;
}

export async function benchMcp(): Promise<boolean> {
  const { core, call, close } = await startBenchCore('mcp');
  const figures: Figure[] = [];

  const server = (await call('mcpServers.put', { name: 'everything', config: EVERYTHING })) as { bundleID: string };
  const ours = () => call('tools.invoke', { bundleID: server.bundleID, toolSlug: 'echo', version: 'mcp', args: { message: 'bench' } });
  // The limit is the SDK client's own call on the very pipe and server process Toolbelt's call uses: two
  // identical bare clients, each on its own server process, differ by up to a fifth here (which process
  // shares a CPU with the bench), more than the goal's margin. Beside it, for reference, a separate bare client.
  // It is the same call on the wire: Toolbelt asks for progress (a token the server reads, so that progress can
  // restart the timeout) with a timeout, as any client that can show progress does; without them the server
  // does less and the bytes differ, and that would be measured as ours.
  await ours();
  const sdk = core.mcpServers.connection('everything')!.sdkClient();
  const sameRequest = { timeout: 60_000, resetTimeoutOnProgress: true, onprogress: () => {} };
  const sameConnection = () => sdk.callTool({ name: 'echo', arguments: { message: 'bench' } }, sameRequest);
  const samples = await timeInTurns(ROUNDS, WARM_UP_ROUNDS, ours, sameConnection);
  figures.push({ section: 'mcp', name: 'tool call p50 (echo, stdio)', ours: percentile(samples.ours, 50), limit: percentile(samples.limit, 50), limitName: 'the bare SDK call, same connection', goalRatio: 1.2 });
  const bare = await bareClient(EVERYTHING);
  const separate = await timeInTurns(ROUNDS, WARM_UP_ROUNDS, ours, () => bare.callTool({ name: 'echo', arguments: { message: 'bench' } }, sameRequest));
  await bare.close();
  figures.push({ section: 'mcp', name: 'tool call p50 (echo, stdio)', ours: percentile(separate.ours, 50), limit: percentile(separate.limit, 50), limitName: 'a bare SDK client on its own server process' });

  // Five servers of 100 tools each: from "add" to all 500 listed, against five bare clients connecting and listing.
  const servers = Object.fromEntries(Array.from({ length: 5 }, (_, index) => [`many-${index}`, MANY(`s${index}`)]));
  let started = performance.now();
  await call('mcpServers.import', { mcpServers: servers });
  const { bundles } = (await call('bundles.list', { pageSize: 500 })) as { bundles: { displayName?: string; toolCount?: number }[] };
  const oursList = performance.now() - started;
  const mcpTools = bundles.filter((bundle) => bundle.displayName?.startsWith('many-')).reduce((sum, bundle) => sum + (bundle.toolCount ?? 0), 0);
  started = performance.now();
  const clients = await Promise.all(Object.values(servers).map((config) => bareClient(config)));
  const bareTools = (await Promise.all(clients.map((client) => client.listTools()))).reduce((sum, page) => sum + page.tools.length, 0);
  const bareList = performance.now() - started;
  await Promise.all(clients.map((client) => client.close()));
  figures.push({ section: 'mcp', name: `5 servers → ${mcpTools} tools listed`, ours: oursList, limit: bareList, limitName: `5 bare SDK clients listing ${bareTools}` });

  figures.push(await chatTurnsWithModernServers());
  const met = figures.map(report);
  await close();
  return met.every(Boolean);
}

/** An SDK v2 server of 2026-07-28 whose tool list may be kept 60 s (ttlMs), and its URL. */
async function startModernServer(): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(process.execPath, [path.join(ROOT, 'testing/servers/modern-mcp-server.mjs')], { stdio: ['ignore', 'pipe', 'inherit'] });
  const [line] = (await once(child.stdout, 'data')) as [Buffer];
  return { url: line.toString().trim(), child };
}

/**
 * A chat turn with ten 2026-07-28 servers whose lists are kept 60 s, against the same turn with none: inside their
 * ttlMs no turn asks any of them for its list again (each counts its list requests; a request is a broken figure).
 */
async function chatTurnsWithModernServers(): Promise<Figure> {
  const turns = sized(40, 3);
  const servers = await Promise.all(Array.from({ length: 10 }, () => startModernServer()));
  const bench = await startBenchCore('mcp-modern');
  try {
    const turn = async () => {
      const { id } = (await bench.call('chats.create', { providerId: 'echo', model: 'scripted' })) as { id: string };
      const done = new Promise<void>((resolve) => {
        const stop = bench.core.events.subscribe((event) => {
          if (event.type === 'chat' && event.chatId === id && event.event.type === 'finish') {
            stop();
            resolve();
          }
        });
      });
      await bench.call('chats.send', { chatId: id, content: 'hello' });
      await done;
      await bench.call('chats.delete', { chatId: id });
    };
    await bench.call('providers.put', { id: 'echo', kind: 'scripted', displayName: 'Echo' });
    const timed = async () => {
      const started = performance.now();
      for (let i = 0; i < turns; i++) await turn();
      return (performance.now() - started) / turns;
    };
    await turn();
    const without = await timed();
    const { servers: added } = (await bench.call('mcpServers.import', { mcpServers: Object.fromEntries(servers.map((server, index) => [`modern-${index}`, { url: server.url }])) })) as { servers: { name: string; bundleID: string }[] };
    const listed = async () => {
      let total = 0;
      for (const server of added) total += Number((await bench.call('tools.invoke', { bundleID: server.bundleID, toolSlug: 'list_count', version: 'mcp', args: {} }) as { value: string }).value);
      return total;
    };
    const before = await listed();
    const withServers = await timed();
    const asked = (await listed()) - before;
    if (asked !== 0) throw new Error(`${asked} tool list requests during ${turns} chat turns, inside the servers' 60 s ttlMs`);
    return { section: 'mcp', name: `chat turn with ten 2026 servers (0 list requests in ${turns} turns)`, ours: withServers, limit: without, limitName: 'the same turn with no server', goalRatio: 1.2 };
  } finally {
    await bench.close();
    for (const server of servers) server.child.kill();
  }
}

// Toolbelt as an MCP server: a tool call through our Streamable HTTP endpoint
// with the official SDK client, against the same call to the SDK's own server
// (2025 sessions, and 2026-07-28 stateless requests), and for reference against
// the same tools.invoke through the browser host's HTTP API, in one run.
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { InMemoryEventStore } from '@modelcontextprotocol/sdk/examples/shared/inMemoryEventStore.js';
import { NodeStreamableHTTPServerTransport, toNodeHandler } from '@modelcontextprotocol/node';
import { createMcpHandler, McpServer, WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/server';
import * as z from 'zod';
import { startHttpHost } from '../main/server/http-host.js';
import { silentLogger } from '../main/log.js';
import { requestScopedFetch } from '../main/mcp-client/request-scoped-fetch.js';
import { freePort } from '../testing/cores/free-port.js';
import { startBenchCore } from './bench-core.js';
import { percentile, report, timeInTurns, type Figure, sized } from './stats.js';
import { CORE_BUNDLE as CORE } from '../testing/data/fixtures.js';

const TOKEN = 'bench-token-0123456789abcdef';
const ROUNDS = sized(2_000, 3);
const WARM_UP_ROUNDS = sized(500);

/** A bare server's HTTP listener on a loopback port: its /mcp address, and what closes it with the server. */
async function serveOnLoopback(handle: (request: IncomingMessage, response: ServerResponse) => Promise<unknown>, closeServer: () => Promise<void>): Promise<{ url: string; close: () => Promise<void> }> {
  const http = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => response.destroy(error instanceof Error ? error : new Error(String(error))));
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`,
    close: async () => {
      await closeServer();
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}

/**
 * The SDK v2's own server (the one Toolbelt's is built on), one 2025 session, the same tool answering at once: what
 * a server of this SDK pays per call. Resumable as Toolbelt's is (the SDK's example event store: each stream opens
 * with a priming event the client reads, SEP-1699), on the SDK's web transport and its own Node adapter, so both
 * send the same events; without resumability (its Node transport, no store), for reference.
 */
async function startBareSessionServer(resumable: boolean): Promise<{ url: string; close: () => Promise<void> }> {
  const server = new McpServer({ name: 'bare', version: '1' });
  server.registerTool('calculator', { inputSchema: z.object({ expression: z.string() }) }, () => ({ content: [{ type: 'text', text: '{"value":20}' }] }));
  if (!resumable) {
    const transport = new NodeStreamableHTTPServerTransport({ sessionIdGenerator: () => randomUUID() });
    await server.connect(transport);
    return serveOnLoopback((request, response) => transport.handleRequest(request, response), () => server.close());
  }
  const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: () => randomUUID(), eventStore: new InMemoryEventStore(), retryInterval: 2_000 });
  await server.connect(transport);
  const serve = toNodeHandler({ fetch: (request, options) => transport.handleRequest(request, options) });
  return serveOnLoopback((request, response) => serve(request, response), () => server.close());
}

/**
 * The SDK v2's own 2026-07-28 server (`createMcpHandler`, a server made per request) with the same tool answering at
 * once: what any server of this revision built on the SDK pays per stateless call.
 */
async function startBareModernServer(): Promise<{ url: string; close: () => Promise<void> }> {
  const handler = createMcpHandler(
    () => {
      const server = new McpServer({ name: 'bare', version: '1' });
      server.registerTool('calculator', { inputSchema: z.object({ expression: z.string() }) }, () => ({ content: [{ type: 'text', text: '{"value":20}' }] }));
      return server;
    },
    { legacy: 'reject' },
  );
  const serve = toNodeHandler(handler);
  return serveOnLoopback((request, response) => serve(request, response), () => handler.close());
}

/** A 2026-07-28 tools/call as one plain POST, the same bytes to either server: it stands alone, no session. */
function statelessCall(url: string, token: string, args: Record<string, unknown>): () => Promise<unknown> {
  let id = 1;
  const headers = { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', 'MCP-Protocol-Version': '2026-07-28', 'Mcp-Method': 'tools/call', 'Mcp-Name': 'calculator' };
  const _meta = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientInfo': { name: 'bench', version: '1' }, 'io.modelcontextprotocol/clientCapabilities': {} };
  return async () => {
    const body = JSON.stringify({ jsonrpc: '2.0', id: id++, method: 'tools/call', params: { name: 'calculator', arguments: args, _meta } });
    const answer = await fetch(url, { method: 'POST', headers, body });
    const message = (await answer.json()) as { result?: { isError?: boolean } };
    if (!message.result || message.result.isError) throw new Error(`the stateless call failed: ${JSON.stringify(message).slice(0, 200)}`);
    return message.result;
  };
}

/** A tools/call as a plain fetch on an open session: the answer is one SSE event, read without a parser. */
function plainMcpCall(url: string, token: string, sessionId: string, args: Record<string, unknown>): () => Promise<unknown> {
  let id = 1_000_000;
  const headers = { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', 'mcp-session-id': sessionId };
  return async () => {
    const body = JSON.stringify({ jsonrpc: '2.0', id: id++, method: 'tools/call', params: { name: 'calculator', arguments: args } });
    const text = await (await fetch(url, { method: 'POST', headers, body })).text();
    const data = text.split('\n').find((line) => line.startsWith('data: '));
    const message = data ? (JSON.parse(data.slice('data: '.length)) as { result?: unknown }) : {};
    if (!message.result) throw new Error(`the plain call failed: ${text.slice(0, 200)}`);
    return message.result;
  };
}

export async function benchMcpServer(): Promise<boolean> {
  const { core, call, close } = await startBenchCore('mcp-server', { mcpShare: { listen: true } });
  await call('mcpShare.configure', { enabled: true, port: await freePort() });
  await call('mcpShare.shareBundle', { bundleID: CORE, shared: true });
  const { url, token } = (await call('mcpShare.connection', {})) as { url: string; token: string };
  const client = new Client({ name: 'bench', version: '1' });
  // A client that does not pile listeners on its connection's signal (the SDK's own transport does: see main/mcp-client/request-scoped-fetch.ts).
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { fetch: requestScopedFetch(), requestInit: { headers: { Authorization: `Bearer ${token}` } } }));
  const host = await startHttpHost({ core, token: TOKEN, port: 0, rendererDir: null, log: silentLogger });
  const invokeUrl = `http://127.0.0.1:${host.port}/api/tools/bundles/${CORE}/tools/calculator/version/v1/invoke`;

  const args = { expression: '(2 + 3) * 4' };
  const overMcp = () => client.callTool({ name: 'calculator', arguments: args });
  const overApi = async () =>
    (await fetch(invokeUrl, { method: 'POST', headers: { Authorization: `Bearer ${TOKEN}`, 'Content-Type': 'application/json' }, body: JSON.stringify({ args }) })).json();
  const samples = await timeInTurns(ROUNDS, WARM_UP_ROUNDS, overMcp, overApi);
  // For reference (no goal): the same call as one plain POST on the client's session, read by hand, to tell the
  // client's share (the SDK's transport, its parsing) from the server's.
  const plainMcp = plainMcpCall(url, token, (client.transport as StreamableHTTPClientTransport).sessionId!, args);
  const plain = await timeInTurns(ROUNDS, WARM_UP_ROUNDS, plainMcp, overApi);
  // The same client against the SDK's own server, resumable as ours, and (for reference) not resumable.
  const bareSessions = await Promise.all([startBareSessionServer(true), startBareSessionServer(false)]);
  const bareClients = await Promise.all(
    bareSessions.map(async (bare) => {
      const bareClient = new Client({ name: 'bench', version: '1' });
      await bareClient.connect(new StreamableHTTPClientTransport(new URL(bare.url), { fetch: requestScopedFetch() }));
      return bareClient;
    }),
  );
  const againstBare = (bareClient: Client) => timeInTurns(ROUNDS, WARM_UP_ROUNDS, overMcp, () => bareClient.callTool({ name: 'calculator', arguments: args }));
  const resumable = await againstBare(bareClients[0]!);
  const notResumable = await againstBare(bareClients[1]!);
  // 2026-07-28: the same stateless POST to Toolbelt's server and to the SDK v2's own, whose tool answers at once.
  const bareModern = await startBareModernServer();
  const stateless = await timeInTurns(ROUNDS, WARM_UP_ROUNDS, statelessCall(url, token, args), statelessCall(bareModern.url, token, args));
  const figures: Figure[] = [
    { section: 'mcp-server', name: 'tool call p50 (calculator, 2025 session)', ours: percentile(resumable.ours, 50), limit: percentile(resumable.limit, 50), limitName: 'the SDK server, resumable too, tool answering at once', goalRatio: 1.05 },
    { section: 'mcp-server', name: 'same call', ours: percentile(notResumable.ours, 50), limit: percentile(notResumable.limit, 50), limitName: 'the SDK server not resumable (no priming event)' },
    // The SDK client's own share: the bare server through it is as far from a plain POST as ours.
    { section: 'mcp-server', name: 'same call', ours: percentile(samples.ours, 50), limit: percentile(samples.limit, 50), limitName: 'tools.invoke over the browser host API' },
    { section: 'mcp-server', name: 'same call, one plain POST (no SDK client)', ours: percentile(plain.ours, 50), limit: percentile(plain.limit, 50), limitName: 'tools.invoke over the browser host API' },
    { section: 'mcp-server', name: 'stateless tool call p50 (2026-07-28, one POST)', ours: percentile(stateless.ours, 50), limit: percentile(stateless.limit, 50), limitName: 'the SDK v2 server, tool answering at once', goalRatio: 1.05 },
  ];
  const met = figures.map(report);
  await Promise.all(bareClients.map((bareClient) => bareClient.close()));
  await Promise.all(bareSessions.map((bare) => bare.close()));
  await bareModern.close();
  await client.close();
  await host.close();
  await close();
  return met.every(Boolean);
}

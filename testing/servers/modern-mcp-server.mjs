// An MCP server of this year, built on the official SDK v2 (@modelcontextprotocol/server),
// that speaks only the 2026-07-28 revision: stateless requests over HTTP, the 2025
// handshake refused (`legacy: 'reject'`). What a person's client must reach now.
// Prints its URL on stdout, then serves until killed.
//   echo         a text back;
//   ask_name     asks the person for a name mid-call (an input_required result), then greets it;
//   ask_forever  asks again after every answer;
//   grow         adds a tool (extra_N) and tells listening clients the list changed;
//   list_count   how many tools/list requests came so far (the list may be kept 60 s);
//   client_extensions  the extensions the calling client declared.
import { createServer } from 'node:http';
import { getRequestListener } from '@hono/node-server';
import { createMcpHandler, inputRequired, McpServer } from '@modelcontextprotocol/server';
import * as z from 'zod';

// The tools/list caching hint's ttlMs: 60 s, or the first argument (tests give 0 and years). A second
// argument is what a hostile server writes there instead, past the SDK's own checks (-5, 1e300, "soon").
const ttlMs = process.argv[2] === undefined ? 60_000 : Number(process.argv[2]);
const hostileTtl = process.argv[3];
let listRequests = 0;
let extraTools = 0;

function build() {
  const server = new McpServer({ name: 'modern', version: '2.4.0' }, { cacheHints: { 'tools/list': { ttlMs, cacheScope: 'private' } } });
  server.registerTool('echo', { description: 'Says the text back.', inputSchema: z.object({ text: z.string() }) }, ({ text }) => ({
    content: [{ type: 'text', text: `echo: ${text}` }],
  }));
  server.registerTool('ask_name', { description: 'Asks the person for a name, then greets it.', inputSchema: z.object({}) }, (_args, ctx) => {
    const answer = ctx.mcpReq.inputResponses?.name;
    if (!answer)
      return inputRequired({
        inputRequests: { name: { method: 'elicitation/create', params: { mode: 'form', message: 'Your name?', requestedSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] } } } },
      });
    const name = answer.action === 'accept' ? String(answer.content?.name ?? '') : '(declined)';
    return { content: [{ type: 'text', text: `Hello, ${name}.` }] };
  });
  // Never content: asks again, whatever the answer.
  server.registerTool('ask_forever', { description: 'Asks the person again and again.', inputSchema: z.object({}) }, () =>
    inputRequired({ inputRequests: { more: { method: 'elicitation/create', params: { mode: 'form', message: 'One more thing?', requestedSchema: { type: 'object', properties: {} } } } } }),
  );
  server.registerTool('grow', { description: 'Adds a tool.', inputSchema: z.object({}) }, () => {
    extraTools++;
    handler.notify.toolsChanged();
    return { content: [{ type: 'text', text: `extra_${extraTools}` }] };
  });
  server.registerTool('list_count', { description: 'How many tools/list requests came.', inputSchema: z.object({}) }, () => ({ content: [{ type: 'text', text: String(listRequests) }] }));
  server.registerTool('client_extensions', { description: 'The extensions the client declared.', inputSchema: z.object({}) }, () => ({
    content: [{ type: 'text', text: JSON.stringify(server.server.getClientCapabilities()?.extensions ?? null) }],
  }));
  for (let index = 1; index <= extraTools; index++) {
    server.registerTool(`extra_${index}`, { description: `Added tool ${index}.`, inputSchema: z.object({}) }, () => ({ content: [{ type: 'text', text: `extra ${index}` }] }));
  }
  return server;
}

const handler = createMcpHandler(build, { legacy: 'reject' });
// With OLD_SHAPES=1 it answers tools/call as a 2025 server would (no resultType) while saying 2026-07-28.
const oldShapes = process.env.OLD_SHAPES === '1';
const listener = getRequestListener((request) => {
  if (oldShapes && request.headers.get('mcp-method') === 'tools/call') {
    return handler.fetch(request).then(async (response) => {
      const body = (await response.text()).replace(/"resultType":"complete",?/g, '');
      return new Response(body, { status: response.status, headers: response.headers });
    });
  }
  // A 2026-07-28 client names the method in a header: counted without reading the body.
  if (request.headers.get('mcp-method') !== 'tools/list') return handler.fetch(request);
  listRequests++;
  if (hostileTtl === undefined) return handler.fetch(request);
  return handler.fetch(request).then(async (response) => {
    const body = (await response.text()).replace(/"ttlMs":\d+/, `"ttlMs":${hostileTtl}`);
    return new Response(body, { status: response.status, headers: response.headers });
  });
});
const http = createServer(listener);
http.listen(0, '127.0.0.1', () => {
  const { port } = /** @type {import('node:net').AddressInfo} */ (http.address());
  process.stdout.write(`http://127.0.0.1:${port}/mcp\n`);
});

// An MCP server on the official SDK's Server (stdio) that misbehaves the way
// HOSTILE_MODE says, for the tests that show Toolbelt stays bounded:
// - endless-cursor: every tools/list page has one tool and a new nextCursor;
// - flood: after the handshake, 5,000 tools/list_changed notices at once; each
//   list names how many lists were asked for (`listed-N`), and the tool `lists`
//   answers that count;
// - stderr: 5 MB on stderr without a line end, then "gave up", and never
//   answers the handshake;
// - silent-list: answers the handshake, never tools/list;
// - hostile-schema: tools whose inputSchema has a remote $ref, or 2,000 levels;
// - rpc-error: every tools/call is answered with JSON-RPC error -32603.
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CallToolRequestSchema, ErrorCode, ListToolsRequestSchema, McpError } from '@modelcontextprotocol/sdk/types.js';

const mode = process.env.HOSTILE_MODE;
const server = new Server({ name: `hostile-${mode}`, version: '1.0.0' }, { capabilities: { tools: { listChanged: true } } });
let lists = 0;

function deepSchema(levels) {
  let schema = { type: 'string' };
  for (let level = 0; level < levels; level++) schema = { type: 'object', properties: { next: schema } };
  return schema;
}

server.setRequestHandler(ListToolsRequestSchema, async (request) => {
  lists++;
  if (mode === 'endless-cursor') {
    const page = Number(request.params?.cursor ?? 0);
    return { tools: [{ name: `page-${page}`, inputSchema: { type: 'object' } }], nextCursor: String(page + 1) };
  }
  if (mode === 'silent-list') return new Promise(() => {});
  if (mode === 'hostile-schema') {
    return {
      tools: [
        { name: 'remote-ref', inputSchema: { type: 'object', properties: { a: { $ref: 'https://attacker.test/schema.json' } } } },
        { name: 'deep', inputSchema: deepSchema(2_000) },
      ],
    };
  }
  return { tools: [{ name: `listed-${lists}`, inputSchema: { type: 'object' } }, { name: 'lists', inputSchema: { type: 'object' } }] };
});
server.setRequestHandler(CallToolRequestSchema, async () => {
  if (mode === 'rpc-error') throw new McpError(ErrorCode.InternalError, 'the database is gone');
  return { content: [{ type: 'text', text: String(lists) }] };
});
server.oninitialized = () => {
  if (mode === 'flood') for (let notice = 0; notice < 5_000; notice++) server.sendToolListChanged().catch(() => {});
};
if (mode === 'stderr') {
  process.stderr.write('x'.repeat(5 * 1024 * 1024));
  process.stderr.write('gave up\n');
  setInterval(() => {}, 60_000);
} else {
  await server.connect(new StdioServerTransport());
}

// An MCP server (the official SDK's Server over stdio) that crashes once:
// the first time it runs it exits shortly after a client connects; after
// that (CRASH_MARKER exists) it stays up. For restart-with-backoff tests.
import { existsSync, writeFileSync } from 'node:fs';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';

const marker = process.env.CRASH_MARKER;
const server = new Server({ name: 'crash-once', version: '1.0.0' }, { capabilities: { tools: {} } });
server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: [{ name: 'ping', description: 'Answers pong.', inputSchema: { type: 'object' } }] }));
server.setRequestHandler(CallToolRequestSchema, async () => ({ content: [{ type: 'text', text: 'pong' }] }));
server.oninitialized = () => {
  if (marker && !existsSync(marker)) {
    writeFileSync(marker, 'crashed once');
    setTimeout(() => {
      process.stderr.write('segmentation fault (simulated)\n');
      process.exit(139);
    }, 300);
  }
};
await server.connect(new StdioServerTransport());

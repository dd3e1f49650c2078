// An MCP server (the official SDK's McpServer over stdio) whose prompts and
// resources grow while it runs: its one tool adds a prompt and a resource,
// and the SDK tells the client their lists changed.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';

const server = new McpServer({ name: 'growing', version: '1.0.0' }, { capabilities: { prompts: { listChanged: true }, resources: { listChanged: true } } });
server.registerPrompt('greeting', { description: 'Says hello.' }, () => ({ messages: [{ role: 'user', content: { type: 'text', text: 'Hello.' } }] }));
server.registerResource('first', 'memo://first', { mimeType: 'text/plain' }, () => ({ contents: [{ uri: 'memo://first', text: 'one' }] }));
let added = 0;
server.registerTool('grow', { description: 'Adds a prompt and a resource.' }, () => {
  added++;
  server.registerPrompt(`farewell-${added}`, { description: 'Says goodbye.' }, () => ({ messages: [{ role: 'user', content: { type: 'text', text: 'Bye.' } }] }));
  server.registerResource(`more-${added}`, `memo://more-${added}`, { mimeType: 'text/plain' }, () => ({ contents: [{ uri: `memo://more-${added}`, text: 'more' }] }));
  return { content: [{ type: 'text', text: `added ${added}` }] };
});
await server.connect(new StdioServerTransport());

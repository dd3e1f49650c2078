// An MCP server (the official SDK's McpServer over stdio) whose prompt and
// resource carry pictures, as a design tool's or a screenshot server's do.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';

// A 1×1 PNG.
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';
const SVG = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>').toString('base64');

const server = new McpServer({ name: 'pictures', version: '1.0.0' });
server.registerPrompt('look', { title: 'Look at this', description: 'Asks about a picture.' }, () => ({
  messages: [
    { role: 'user', content: { type: 'text', text: 'What is in this picture?' } },
    { role: 'user', content: { type: 'image', data: PNG, mimeType: 'image/png' } },
    { role: 'user', content: { type: 'resource', resource: { uri: 'pic://dot', mimeType: 'image/png', blob: PNG } } },
    // A format that can carry script: named, never sent as a picture.
    { role: 'user', content: { type: 'image', data: SVG, mimeType: 'image/svg+xml' } },
  ],
}));
server.registerResource('dot', 'pic://dot', { mimeType: 'image/png' }, () => ({ contents: [{ uri: 'pic://dot', mimeType: 'image/png', blob: PNG }] }));
await server.connect(new StdioServerTransport());

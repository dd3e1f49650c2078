// An MCP server (the official SDK's Server over stdio) whose one tool asks
// the client to sample from its model, whatever the client declared — as
// servers written for older clients do — and reports what the client said.
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CallToolRequestSchema, CreateMessageResultSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';

const server = new Server({ name: 'sampler', version: '1.0.0' }, { capabilities: { tools: {} } });
server.setRequestHandler(ListToolsRequestSchema, async () => ({
  tools: [{ name: 'summarize', description: 'Summarizes by asking the client’s model.', inputSchema: { type: 'object' } }],
}));
server.setRequestHandler(CallToolRequestSchema, async () => {
  try {
    await server.request(
      { method: 'sampling/createMessage', params: { messages: [{ role: 'user', content: { type: 'text', text: 'Summarize.' } }], maxTokens: 50 } },
      CreateMessageResultSchema,
    );
    return { content: [{ type: 'text', text: 'the client sampled' }] };
  } catch (error) {
    return { content: [{ type: 'text', text: `the client refused: ${error.message}` }], isError: true };
  }
});
await server.connect(new StdioServerTransport());

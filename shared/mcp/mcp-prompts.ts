import type { McpPrompt } from '../schemas/mcp.js';

/** A prompt's arguments as the JSON Schema an argument form takes: all strings, with their descriptions and which are required. */
export function promptArgSchema(prompt: McpPrompt): Record<string, unknown> {
  return {
    type: 'object',
    properties: Object.fromEntries(prompt.arguments.map((argument) => [argument.name, { type: 'string', ...(argument.description ? { description: argument.description } : {}) }])),
    required: prompt.arguments.filter((argument) => argument.required).map((argument) => argument.name),
  };
}

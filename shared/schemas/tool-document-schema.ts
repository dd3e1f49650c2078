import { IMPL_SCHEMAS, ToolInputSchema } from './tool.js';

function plain(schema: unknown): Record<string, unknown> {
  // TypeBox marks schemas with symbols; editors want plain JSON.
  return JSON.parse(JSON.stringify(schema)) as Record<string, unknown>;
}

/**
 * The JSON Schema of a tool document as people edit it (tool.json without
 * the fields the store owns), with `impl` checked according to `type`.
 * Published to the editor so Monaco validates as you type.
 */
export const TOOL_DOCUMENT_JSON_SCHEMA: Record<string, unknown> = {
  ...plain(ToolInputSchema),
  $id: 'toolbelt://schemas/tool.json',
  title: 'Toolbelt tool',
  allOf: [
    { if: { properties: { type: { const: 'local' } } }, then: { properties: { impl: plain(IMPL_SCHEMAS.local) } } },
    { if: { properties: { type: { const: 'http' } } }, then: { properties: { impl: plain(IMPL_SCHEMAS.http) } } },
  ],
};

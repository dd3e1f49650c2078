/**
 * A tool's outcome as MCP says it (a `CallToolResult`): what Toolbelt's MCP
 * server answers its clients, and what an MCP App is given of a call. The
 * value Toolbelt keeps is the structured content when the server sent it, a
 * text when there was one, or the content blocks themselves; each comes back
 * the way MCP carries it.
 */
export interface McpToolResult {
  [key: string]: unknown;
  content: ({ type: string } & Record<string, unknown>)[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
}

const CONTENT_TYPES = new Set(['text', 'image', 'audio', 'resource', 'resource_link']);

/** The value as text for a model or a client that reads text: a string as it is, anything else as JSON. */
export const valueText = (value: unknown): string => (typeof value === 'string' ? value : (JSON.stringify(value, null, 2) ?? 'null'));

const isContentList = (value: unknown): value is McpToolResult['content'] =>
  Array.isArray(value) &&
  value.length > 0 &&
  value.every((block) => typeof block === 'object' && block !== null && CONTENT_TYPES.has(String((block as { type?: unknown }).type)));

/** `structured`: the tool declares an output schema, so an object value is its structured content too. */
export function asMcpToolResult(outcome: { ok: true; value: unknown; content?: unknown[] } | { ok: false; error: { message: string } }, structured: boolean): McpToolResult {
  if (!outcome.ok) return { isError: true, content: [{ type: 'text', text: outcome.error.message }] };
  const { value } = outcome;
  if (isContentList(value)) return { content: value };
  const asObject = structured && value !== null && typeof value === 'object' && !Array.isArray(value);
  // The blocks a server sent beside its structured content go back as they came.
  const content = isContentList(outcome.content) ? outcome.content : [{ type: 'text', text: valueText(value) }];
  return { content, ...(asObject ? { structuredContent: value as Record<string, unknown> } : {}) };
}

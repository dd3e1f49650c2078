import { specTypeSchemas, type StandardSchemaV1, type Tool } from '@modelcontextprotocol/client';

/** One page of tools/list as Toolbelt reads it. */
export interface ToolPage {
  tools: Tool[];
  nextCursor?: string;
}

/**
 * How a page of tools/list is checked: each tool by the SDK's own schema, except one whose input schema nests so
 * deep that checking it overflows the stack. That one is kept as sent (a name and an object) so that the tool
 * records leave it out, saying why (records.ts), where the SDK's check of the whole page would lose every tool of
 * the server to one hostile definition.
 */
export const TOOL_PAGE: StandardSchemaV1<unknown, ToolPage> = {
  '~standard': {
    version: 1,
    vendor: 'toolbelt',
    async validate(value) {
      if (!value || typeof value !== 'object') return { issues: [{ message: 'the page is not an object' }] };
      const { tools, nextCursor } = value as { tools?: unknown; nextCursor?: unknown };
      if (!Array.isArray(tools)) return { issues: [{ message: 'the page has no list of tools', path: ['tools'] }] };
      if (nextCursor !== undefined && typeof nextCursor !== 'string') return { issues: [{ message: 'its cursor is not text', path: ['nextCursor'] }] };
      const checked: Tool[] = [];
      for (const [index, tool] of tools.entries()) {
        const one = await checkTool(tool);
        if ('issue' in one) return { issues: [{ message: `tool ${index}: ${one.issue}`, path: ['tools', index] }] };
        checked.push(one.tool);
      }
      return { value: { tools: checked, ...(nextCursor !== undefined ? { nextCursor } : {}) } };
    },
  },
};

async function checkTool(tool: unknown): Promise<{ tool: Tool } | { issue: string }> {
  try {
    // zod's check answers with a promise when its synchronous pass threw (as a stack overflow does): awaited either way.
    const result = await Promise.resolve(specTypeSchemas.Tool['~standard'].validate(tool));
    return result.issues ? { issue: result.issues.map((issue) => issue.message).join('; ') } : { tool: result.value };
  } catch (error) {
    if (!(error instanceof RangeError)) throw error;
    const shape = tool as { name?: unknown; inputSchema?: unknown };
    if (typeof shape.name !== 'string' || !shape.inputSchema || typeof shape.inputSchema !== 'object') return { issue: 'not a tool' };
    return { tool: tool as Tool };
  }
}

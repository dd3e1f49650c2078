import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { isToolName } from '../../shared/schemas/ids.js';
import type { ToolFile } from '../../shared/schemas/tool.js';
import type { BundleRecord, ToolRecord } from '../store/records.js';
import { mcpBundleID, mcpToolID } from './identity.js';

const MCP_VERSION = 'mcp';
export const mcpSourceID = (server: string) => `mcp:${server}`;

/** JSON Schema keywords of a document's envelope that our validators and the providers do not take. */
function schemaBody(schema: Record<string, unknown> | undefined): Record<string, unknown> {
  const { $schema: _schema, $id: _id, ...rest } = schema ?? {};
  return { type: 'object', ...rest };
}

/**
 * A server's tools as records: one bundle per server, each tool addressed
 * by its MCP name (version "mcp"). Annotations set the default for asking
 * first: a destructive tool asks, a read-only one does not. Names the store
 * cannot address are left out and reported.
 */
/** A tool of a server that Toolbelt does not offer, and why. */
export interface LeftOutTool {
  name: string;
  why: string;
}

export function mcpRecords(server: string, tools: Tool[], at: string, askFirst: 'as-annotated' | 'always' | 'never' = 'as-annotated'): { bundle: BundleRecord; tools: ToolRecord[]; skipped: LeftOutTool[] } {
  const bundleID = mcpBundleID(server);
  const source = mcpSourceID(server);
  const slug = server.replace(/[^\p{L}\p{M}\p{Nd}-]+/gu, '-').replace(/^-+|-+$/g, '') || 'mcp';
  const bundle: BundleRecord = {
    kind: 'valid',
    bundleID,
    source,
    text: '',
    bundle: { schemaVersion: '1', bundleID, slug, displayName: server, description: `Tools of the MCP server ${server}.`, isEnabled: true, isBuiltIn: false, createdAt: at, modifiedAt: at },
  };
  const records: ToolRecord[] = [];
  const skipped: LeftOutTool[] = [];
  for (const tool of tools) {
    if (!isToolName(tool.name)) {
      skipped.push({ name: tool.name.slice(0, 200), why: 'its name is not one a model can call (letters, digits, "_", "-" and ".", up to 128)' });
      continue;
    }
    // Such a tool answers a plain call with -32600: offering it would only fail.
    if ((tool as { execution?: { taskSupport?: unknown } }).execution?.taskSupport === 'required') {
      skipped.push({ name: tool.name, why: 'it runs only as an MCP task (its execution.taskSupport is "required"), which Toolbelt does not run yet' });
      continue;
    }
    // The spec's defaults: a tool is destructive unless it says it only reads or destroys nothing.
    const destructive = tool.annotations?.readOnlyHint !== true && tool.annotations?.destructiveHint !== false;
    const asks = askFirst === 'always' || (askFirst === 'as-annotated' && destructive);
    const file: ToolFile = {
      schemaVersion: '1',
      toolID: mcpToolID(server, tool.name),
      bundleID,
      slug: tool.name,
      version: MCP_VERSION,
      displayName: (tool.title ?? tool.annotations?.title ?? tool.name).slice(0, 200),
      description: (tool.description ?? '').slice(0, 8_000),
      tags: [],
      type: 'mcp',
      isEnabled: true,
      isBuiltIn: false,
      ...(asks ? { requiresApproval: true } : {}),
      argSchema: schemaBody(tool.inputSchema),
      ...(tool.outputSchema ? { outputSchema: schemaBody(tool.outputSchema) } : {}),
      impl: { server, tool: tool.name },
      createdAt: at,
      modifiedAt: at,
    };
    records.push({ kind: 'valid', toolID: file.toolID, bundleID, tool: file, digest: '', source });
  }
  return { bundle, tools: records, skipped };
}

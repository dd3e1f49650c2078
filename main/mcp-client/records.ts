import type { Tool } from '@modelcontextprotocol/client';
import { isToolName } from '../../shared/schemas/ids.js';
import { SCHEMA_LIMITS_WORDS, schemaSizeProblem } from '../../shared/tools/schema-limits.js';
import type { McpToolUi } from '../../shared/schemas/http-impl.js';
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

/**
 * What a tool says of its MCP App (`_meta.ui`, and the older `_meta["ui/resourceUri"]`): the ui:// resource its
 * calls show, and whether models, its app or both may call it. Anything else there is not an app.
 */
export function appOf(tool: Tool): { ui?: McpToolUi } {
  const meta = (tool._meta ?? {}) as Record<string, unknown>;
  const ui = meta.ui && typeof meta.ui === 'object' ? (meta.ui as Record<string, unknown>) : {};
  const uri = typeof ui.resourceUri === 'string' ? ui.resourceUri : typeof meta['ui/resourceUri'] === 'string' ? meta['ui/resourceUri'] : undefined;
  const resourceUri = uri && uri.startsWith('ui://') && uri.length <= 2_048 ? uri : undefined;
  const visibility = Array.isArray(ui.visibility) ? [...new Set(ui.visibility.filter((who): who is 'model' | 'app' => who === 'model' || who === 'app'))] : undefined;
  const found: McpToolUi = { ...(resourceUri ? { resourceUri } : {}), ...(visibility?.length ? { visibility } : {}) };
  return Object.keys(found).length ? { ui: found } : {};
}

type McpAskFirst = 'as-annotated' | 'always' | 'never';

/**
 * Whether a server's tool asks before a model, an agent or an app runs it.
 * Annotations are hints from a server nobody vetted (a hostile one can call a
 * tool that deletes "readOnlyHint: true"), so by default they only add
 * caution: every tool a model may call asks, and a tool the server keeps for
 * its app (the app's own plumbing, run as the person uses the app) asks when
 * it says it destroys something. The person may trust the server's hints
 * (`as-annotated`: the spec's defaults, a tool that does not say it only
 * reads or destroys nothing asks), trust the server outright (`never`), or
 * ask for every tool (`always`).
 */
function asksFirst(tool: Tool, app: McpToolUi | undefined, askFirst: McpAskFirst | undefined): boolean {
  if (askFirst === 'always') return true;
  if (askFirst === 'never') return false;
  const saysDestructive = tool.annotations?.destructiveHint === true;
  const forAppOnly = app?.visibility !== undefined && !app.visibility.includes('model');
  if (forAppOnly) return saysDestructive;
  if (askFirst === 'as-annotated') return tool.annotations?.readOnlyHint !== true && tool.annotations?.destructiveHint !== false;
  return true;
}

export function mcpRecords(server: string, tools: Tool[], at: string, askFirst?: McpAskFirst): { bundle: BundleRecord; tools: ToolRecord[]; skipped: LeftOutTool[] } {
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
    // A server's schema is checked before anything compiles it or offers it to a model: a huge one could stop the host.
    const oversized = schemaSizeProblem(tool.inputSchema) ?? (tool.outputSchema ? schemaSizeProblem(tool.outputSchema) : null);
    if (oversized) {
      skipped.push({ name: tool.name, why: `its schema ${oversized} (a tool's schema must stay within ${SCHEMA_LIMITS_WORDS})` });
      continue;
    }
    const app = appOf(tool).ui;
    const asks = asksFirst(tool, app, askFirst);
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
      impl: { server, tool: tool.name, ...(app ? { ui: app } : {}) },
      createdAt: at,
      modifiedAt: at,
    };
    records.push({ kind: 'valid', toolID: file.toolID, bundleID, tool: file, digest: '', source });
  }
  return { bundle, tools: records, skipped };
}

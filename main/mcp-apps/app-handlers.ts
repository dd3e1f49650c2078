import type { ReadResourceResult } from '@modelcontextprotocol/client';
import { appPermissions, declaredOrigins, type AppCspDeclaration } from '../../shared/mcp/app-csp.js';
import { ToolbeltError } from '../../shared/errors.js';
import { asMcpToolResult } from '../../shared/mcp/mcp-tool-result.js';
import { MCP_APP_MIME_TYPE as APP_MIME_TYPE } from '../../shared/mcp/app-extension.js';
import type { ToolFile } from '../../shared/schemas/tool.js';
import type { Handlers } from '../api/dispatcher.js';
import { contentsView } from '../mcp-client/offerings.js';
import type { ToolRecord } from '../store/records.js';
import type { Invoker } from '../tools/invoker.js';
import type { ToolResolver } from '../tools/resolver.js';

/** The MIME type of an MCP App's document (the ext-apps spec's). */
const MAX_APP_BYTES = 5_000_000;
const MCP_VERSION = 'mcp';

type McpTool = Extract<ToolFile, { type: 'mcp' }>;
type ResourceItem = ReadResourceResult['contents'][number];

export interface AppHandlerDeps {
  resolver: ToolResolver;
  invoker: Invoker;
  /** A server's resource as it sent it (`_meta` and all). */
  rawResource(server: string, uri: string): Promise<ReadResourceResult['contents']>;
  /** Where the app sandbox finds the documents read here, by the digest answered with each (main/server/app-documents.ts). */
  documents?: AppDocumentKeeper;
}

/** Keeps an app document for the sandbox to serve; answers the digest that names it there, if it could keep it. */
export interface AppDocumentKeeper {
  keep(document: { html: string; csp?: AppCspDeclaration }): string | undefined;
}

/** The MCP tool an app belongs to (or calls), whatever its switches say, or `not_found`. */
async function mcpTool(resolver: ToolResolver, bundleID: string, slug: string): Promise<{ record: ToolRecord; tool: McpTool }> {
  const readiness = await resolver.resolve({ bundleID, slug, version: MCP_VERSION }, { ignoreSwitches: true });
  const tool = readiness.ok ? readiness.record.tool : undefined;
  if (!readiness.ok || tool?.type !== 'mcp') throw new ToolbeltError('not_found', `There is no MCP tool "${slug}" in that bundle.`);
  return { record: readiness.record, tool };
}

const isAppDocument = (item: ResourceItem) => (item.mimeType ?? '').replace(/\s+/g, '').toLowerCase() === APP_MIME_TYPE;

/** The document's text: a text resource as it is, a blob from base64. */
function documentOf(item: ResourceItem): string {
  const text = 'text' in item && typeof item.text === 'string' ? item.text : 'blob' in item && typeof item.blob === 'string' ? Buffer.from(item.blob, 'base64').toString('utf8') : '';
  if (Buffer.byteLength(text) > MAX_APP_BYTES) throw new ToolbeltError('payload_too_large', `The app's document is larger than ${MAX_APP_BYTES / 1_000_000} MB; Toolbelt does not show it.`);
  return text;
}

/** What the document's `_meta.ui` declares for its sandbox: origins (plain ones only), device features, a border. */
function declaredOf(item: ResourceItem) {
  const ui = (item._meta as { ui?: Record<string, unknown> } | undefined)?.ui ?? {};
  const csp = ui.csp && typeof ui.csp === 'object' ? (ui.csp as Record<string, unknown>) : {};
  const lists = Object.fromEntries(
    (['connectDomains', 'resourceDomains', 'frameDomains', 'baseUriDomains'] as const).flatMap((key) => {
      const origins = declaredOrigins(csp[key]);
      return origins.length ? [[key, origins]] : [];
    }),
  );
  return {
    ...(Object.keys(lists).length ? { csp: lists } : {}),
    permissions: appPermissions(ui.permissions),
    ...(typeof ui.prefersBorder === 'boolean' ? { prefersBorder: ui.prefersBorder } : {}),
  };
}

/** Whether an app may call this tool of its server: unless the server keeps it for models only (`visibility: ["model"]`). */
const forApps = (tool: McpTool) => !tool.impl.ui?.visibility || tool.impl.ui.visibility.includes('app');

/**
 * MCP Apps, the core's side: an app's document for the window to frame in
 * its sandbox, and what the app may ask of its server (call its tools, read
 * its resources). A call goes through the one door to the person like any
 * other caller's (`mcp-app`), and through the invoker.
 */
export function mcpAppHandlers(deps: AppHandlerDeps): Pick<Handlers, 'mcpApps.resource' | 'mcpApps.callTool' | 'mcpApps.readResource'> {
  const server = (tool: McpTool) => (tool.impl).server;
  return {
    'mcpApps.resource': async ({ bundleID, toolSlug }) => {
      const { tool } = await mcpTool(deps.resolver, bundleID, toolSlug);
      const uri = tool.impl.ui?.resourceUri;
      if (!uri) throw new ToolbeltError('not_found', `${tool.displayName} has no app: its server names no ui:// resource for it.`);
      const contents = await deps.rawResource(server(tool), uri);
      const item = contents.find((entry) => entry.uri === uri && isAppDocument(entry)) ?? contents.find(isAppDocument);
      if (!item) throw new ToolbeltError('mcp_error', `The MCP server "${server(tool)}" sent no ${APP_MIME_TYPE} document for ${uri}.`);
      const html = documentOf(item);
      const declared = declaredOf(item);
      const digest = deps.documents?.keep({ html, ...(declared.csp ? { csp: declared.csp } : {}) });
      return { uri, html, ...declared, ...(digest ? { digest } : {}) };
    },
    'mcpApps.callTool': async ({ bundleID, toolSlug, name, arguments: args = {} }, context) => {
      const signal = context.signal ?? new AbortController().signal;
      const { tool: app } = await mcpTool(deps.resolver, bundleID, toolSlug);
      const { record, tool } = await mcpTool(deps.resolver, bundleID, name);
      if (!forApps(tool)) throw new ToolbeltError('forbidden', `The MCP server "${server(tool)}" keeps ${tool.displayName} for models: its app may not call it.`);
      // The invoker's door asks the person first when the tool asks (a refusal is a result the app reads).
      const caller = { kind: 'mcp-app' as const, server: server(app), app: app.displayName };
      const result = await deps.invoker.invoke(record, { args }, { caller, signal });
      return asMcpToolResult(result, tool.outputSchema !== undefined);
    },
    'mcpApps.readResource': async ({ bundleID, toolSlug, uri }) => {
      const { tool } = await mcpTool(deps.resolver, bundleID, toolSlug);
      return { contents: contentsView(await deps.rawResource(server(tool), uri)) };
    },
  };
}

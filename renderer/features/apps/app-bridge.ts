import { AppBridge, PostMessageTransport, type McpUiHostContext } from '@modelcontextprotocol/ext-apps/app-bridge';
import type { McpToolResult } from '../../../shared/mcp/mcp-tool-result.js';
import { permissionsObject } from '../../../shared/mcp/app-csp.js';
// The app bridge (@modelcontextprotocol/ext-apps) speaks SDK v1's types.
import type { CallToolResult, ReadResourceResult } from '@modelcontextprotocol/sdk/types.js';
import type { ApiClient } from '../../api/client.js';

/** What the window lets an app do: call its server's tools and read its resources, open links, log. */
const CAPABILITIES = { openLinks: {}, serverTools: {}, serverResources: {}, logging: {}, message: { text: {} } };
/** An app that has not answered Toolbelt's greeting by then is said not to have started. */
export const HANDSHAKE_MS = 10_000;

export interface AppSession {
  /**
   * The call's arguments (as far as the model has written them, until they are complete) and, once it has one, its
   * result (or that it was stopped or denied): sent when the app is ready, and again when they change.
   */
  update(input: { input: Record<string, unknown>; complete: boolean }, result: McpToolResult | null, cancelled?: string): void;
  context(next: McpUiHostContext): void;
  close(): void;
}

export interface AppSessionOptions {
  api: ApiClient;
  frame: HTMLIFrameElement;
  /** Loads the app into the frame (its relay page, or its document into a relay loaded ahead), once the bridge listens. */
  start(): void;
  html: string;
  /** The device features the person allowed this app (iframe feature names); none until they say so. */
  permissions: readonly string[];
  tool: { bundleID: string; slug: string };
  version: string;
  hostContext: McpUiHostContext;
  onHeight(height: number): void;
  onDisplayMode(mode: 'inline' | 'fullscreen'): void;
  /** The app sends a message into the chat; false where there is no chat to send it to. */
  onMessage(text: string): Promise<boolean>;
  /** What the app says the model should know of it now; absent where no model reads it (the tester). */
  onModelContext?: (text: string) => Promise<void>;
  onReady(): void;
  onProblem(problem: 'handshake' | 'connect'): void;
}

const textOf = (content: unknown) =>
  (Array.isArray(content) ? content : [])
    .flatMap((block: unknown) => ((block as { type?: unknown }).type === 'text' && typeof (block as { text?: unknown }).text === 'string' ? [(block as { text: string }).text] : []))
    .join('\n');

/**
 * The host side of one MCP App, on the official SDK's AppBridge: it speaks
 * only to the frame it was given (messages from any other window are not
 * its), answers what the app may ask through the core (its server's tools
 * and resources, through the one door to the person), and refuses the rest
 * with a JSON-RPC error.
 */
export function openAppSession(options: AppSessionOptions): AppSession {
  const { api, frame, tool } = options;
  const permissions = permissionsObject(options.permissions);
  const capabilities = {
    ...CAPABILITIES,
    ...(options.onModelContext ? { updateModelContext: { text: {}, structuredContent: {} } } : {}),
    // What the app may use of what it declared: only what the person allowed.
    sandbox: { permissions },
  };
  const bridge = new AppBridge(null, { name: 'Toolbelt', version: options.version }, capabilities, { hostContext: options.hostContext });
  let ready = false;
  let latest: { input: { input: Record<string, unknown>; complete: boolean }; result: McpToolResult | null; cancelled?: string } | null = null;
  let sentWhole = false;
  let sentResult: McpToolResult | null = null;
  let sentCancel = false;

  const send = () => {
    if (!ready || !latest) return;
    const { input, result, cancelled } = latest;
    const done = async () => {
      // Pieces of the arguments only until the whole of them went: the spec's tool-input-partial, then tool-input.
      if (!input.complete) {
        if (!sentWhole) await bridge.sendToolInputPartial({ arguments: input.input });
        return;
      }
      if (!sentWhole) {
        sentWhole = true;
        await bridge.sendToolInput({ arguments: input.input });
      }
      if (cancelled && !sentCancel) {
        sentCancel = true;
        await bridge.sendToolCancelled({ reason: cancelled });
      }
      if (result && result !== sentResult) {
        sentResult = result;
        await bridge.sendToolResult(result as CallToolResult);
      }
    };
    done().catch(() => options.onProblem('connect'));
  };

  bridge.onsandboxready = () => {
    bridge.sendSandboxResourceReady({ html: options.html, permissions }).catch(() => options.onProblem('connect'));
  };
  bridge.oninitialized = () => {
    ready = true;
    clearTimeout(handshake);
    options.onReady();
    send();
  };
  bridge.onsizechange = ({ height }) => {
    if (typeof height === 'number' && Number.isFinite(height)) options.onHeight(height);
  };
  bridge.oncalltool = async (params) => (await api.mcpApps.callTool({ bundleID: tool.bundleID, toolSlug: tool.slug, name: params.name, arguments: params.arguments ?? {} })) as CallToolResult;
  bridge.onreadresource = async ({ uri }) => (await api.mcpApps.readResource({ bundleID: tool.bundleID, toolSlug: tool.slug, uri })) as ReadResourceResult;
  bridge.onopenlink = async ({ url }) => {
    // The same rule as links in answers: the web only, in the system's browser (Electron's window-open guard) or a tab.
    if (!/^https?:\/\//i.test(url)) return { isError: true };
    window.open(url, '_blank', 'noopener,noreferrer');
    return {};
  };
  bridge.onmessage = async ({ content }) => ((await options.onMessage(textOf(content))) ? {} : { isError: true });
  bridge.onrequestdisplaymode = async ({ mode }) => {
    const next = mode === 'fullscreen' ? 'fullscreen' : 'inline';
    options.onDisplayMode(next);
    return { mode: next };
  };
  bridge.onloggingmessage = () => undefined;
  if (options.onModelContext) {
    const tell = options.onModelContext;
    bridge.onupdatemodelcontext = async ({ content, structuredContent }) => {
      const text = textOf(content) || (structuredContent ? JSON.stringify(structuredContent) : '');
      await tell(text.slice(0, 8_000));
      return {};
    };
  }

  const handshake = setTimeout(() => {
    if (!ready) options.onProblem('handshake');
  }, HANDSHAKE_MS);
  const target = frame.contentWindow!;
  bridge
    .connect(new PostMessageTransport(target, target))
    .then(() => options.start())
    .catch(() => options.onProblem('connect'));

  return {
    update(input, result, cancelled) {
      latest = { input, result, ...(cancelled ? { cancelled } : {}) };
      send();
    },
    context(next) {
      bridge.setHostContext(next);
    },
    close() {
      clearTimeout(handshake);
      bridge.close().catch(() => undefined);
    },
  };
}

import type { Static } from '@sinclair/typebox';
import type { HostKindSchema } from '../../shared/operations/app.js';
import type { Dispatcher } from '../api/dispatcher.js';
import type { EventBus } from '../api/event-bus.js';
import type { AppDocumentKeeper } from '../mcp-apps/app-handlers.js';
import type { ChatEngine } from '../chat/chat-engine.js';
import type { Clock } from '../common/clock.js';
import type { ListenerLimits } from '../common/listener-limits.js';
import type { LaunchImportProcess } from '../imports/import-process.js';
import type { Logger } from '../log.js';
import type { McpShare, StdioCommand } from '../mcp-server/mcp-share.js';
import type { McpServers } from '../mcp-client/servers.js';
import type { Cipher } from '../secrets/cipher.js';
import type { ToolStore } from '../store/tool-store.js';
import type { InvokeHooks, Invoker } from '../tools/invoker.js';
import type { ToolResolver } from '../tools/resolver.js';

// What a host passes to createCore, and the core it gets back.

export type HostKind = Static<typeof HostKindSchema>;


export interface CoreOptions {
  dataDir: string;
  hostKind: HostKind;
  app: { name: string; version: string };
  cipher: Cipher;
  log: Logger;
  clock?: Clock;
  fetch?: typeof globalThis.fetch;
  /** Versions of the runtime hosting the core, shown in Settings. */
  runtime?: { electron?: string; chrome?: string };
  /** The origin MCP Apps run on, when the host serves one (main/server/app-sandbox.ts): the window frames apps from it. */
  appSandboxOrigin?: string;
  /** The sandbox's shelf of app documents: each one the core reads goes there, for the relay to frame by digest. */
  appDocuments?: AppDocumentKeeper;
  /** How often an idle event stream gets a heartbeat; keeps proxies and the status dot honest. */
  heartbeatMs?: number;
  /** Watch the data folder for changes by other programs (default on). */
  watchFiles?: boolean;
  /** How often soft-deleted bundles are reaped (default hourly). */
  reaperIntervalMs?: number;
  /** Called around every tool call, for metrics. */
  invokeHooks?: InvokeHooks;
  /** Environment variables that add providers at start (OPENAI_API_KEY, ANTHROPIC_BASE_URL, …); hosts pass process.env. */
  environment?: Readonly<Record<string, string | undefined>>;
  /** Retries the provider SDKs make on connection errors, 429 and 5xx (default 2). */
  providerRetries?: number;
  /** Claude Desktop's configuration file, for "import from Claude Desktop" (default: its place on this system). */
  claudeDesktopConfig?: string;
  /** The PATH MCP server commands are found on (default: the login shell's, then the app's). */
  shellPath?: () => Promise<string>;
  /** The system's picker for a folder or a file (the desktop app's dialog), for settings that take a full path. */
  pickPath?: (kind: 'directory' | 'file', title: string | undefined) => Promise<string | null>;
  /** How long an MCP server has to answer the handshake (default 30 s; tests shorten it). */
  mcpConnectTimeoutMs?: number;
  /**
   * Toolbelt's own MCP server: `listen` serves Streamable HTTP while the core runs, when the person switched it on
   * (hosts with a window; off for the stdio command and by default); `stdioCommand` is what other apps run for stdio.
   */
  mcpShare?: { listen: boolean; stdioCommand?: StdioCommand; waitingNoticeMs?: number; listenerLimits?: ListenerLimits };
  /** Whether a window is there to approve MCP clients' calls (default: someone listens to the core's events). */
  windowOpen?: () => boolean;
  /** Tests: wait between retries (default: really wait). */
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
  /** Where the script sandbox's worker is (the built one beside the core, or its source in tests). */
  scriptWorker?: URL;
  /** Where the signature reader's worker is (the bench's build is elsewhere). */
  signatureWorker?: URL;
  /** Where the import process's entry is (the built one beside the core, or its source in tests). */
  importWorker?: URL;
  /** How the import process is started: Node's fork unless the host says otherwise (the desktop app: Electron's utility process). */
  launchImportProcess?: LaunchImportProcess;
}

export type { LaunchImportProcess } from '../imports/import-process.js';

export interface Core {
  dispatcher: Dispatcher;
  events: EventBus;
  dataDir: string;
  store: ToolStore;
  invoker: Invoker;
  resolver: ToolResolver;
  chats: ChatEngine;
  mcpShare: McpShare;
  mcpServers: McpServers;
  /** Settles once what the core starts ahead of first use is ready (the script sandbox's worker, with script tools in the store); never rejects. */
  warmedUp: Promise<void>;
  close(): Promise<void>;
}


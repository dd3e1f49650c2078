import os from 'node:os';
import path from 'node:path';
import type { Static } from '@sinclair/typebox';
import type { HostKindSchema } from '../shared/operations/app.js';
import { createCallRegistry } from './api/call-registry.js';
import { inBackground } from './common/background.js';
import { isFileLockHeld } from './common/file-lock.js';
import { makePrivateFolder } from './common/json-files.js';
import { removeStaleTemporaries } from './common/stale-temporaries.js';
import { isUuidV7 } from '../shared/schemas/ids.js';
import { createDispatcher, type Dispatcher } from './api/dispatcher.js';
import { createEventBus, type EventBus } from './api/event-bus.js';
import { systemClock, type Clock } from './common/clock.js';
import { createAjv } from './common/validation.js';
import { runJsonPathPatternsLinearly } from './common/json-path.js';
import { appHandlers } from './app-handlers.js';
import type { Logger } from './log.js';
import type { Cipher } from './secrets/cipher.js';
import type { ListenerLimits } from './common/listener-limits.js';
import { ToolCatalog } from './store/catalog.js';
import { createDocumentValidator } from './store/document-validation.js';
import { storeHandlers } from './store/handlers.js';
import { createLayout } from './store/layout.js';
import { claudeDesktopConfigPath } from './mcp/claude-desktop.js';
import { mcpHandlers } from './mcp/handlers.js';
import { mcpAppHandlers, type AppDocumentKeeper } from './apps/app-handlers.js';
import { mcpRunner } from './mcp/runner.js';
import { McpServers } from './mcp/servers.js';
import { mcpShareHandlers } from './mcp-host/handlers.js';
import { McpShare, type StdioCommand } from './mcp-host/mcp-share.js';
import { questionHandlers } from './questions/handlers.js';
import { LiveQuestions } from './questions/live-questions.js';
import { loginShellPath } from './mcp/shell-path.js';
import { builtinSource } from './store/sources.js';
import { SHIPPED_ALLOWED_HOSTS, SHIPPED_BUNDLES, TOOL_SEARCH_TOOL } from '../builtins/index.js';
import { SearchCatalogue } from './tools/search-catalogue.js';
import { ToolStore } from './store/tool-store.js';
import { watchStore, type StoreWatcher } from './store/watcher.js';
import { CORE_FUNCTIONS } from '../builtins/core/functions/index.js';
import { ChatEngine } from './chat/chat-engine.js';
import { ChatFiles } from './chat/chat-files.js';
import { agentRunner } from './agents/agent-runner.js';
import { chatHandlers } from './chat/handlers.js';
import { contextHandlers } from './chat/context-budget.js';
import { capabilityReader } from './providers/capabilities.js';
import { providerHandlers } from './providers/handlers.js';
import { createProviderFactory } from './providers/provider-factory.js';
import { recordingFetch } from './providers/raw-exchange.js';
import { createProviderStore } from './providers/provider-store.js';
import { createSecretStores } from './secrets/secret-store.js';
import { createSettingsStore } from './settings/settings-store.js';
import { importHandlers } from './imports/handlers.js';
import { archiveHandlers } from './imports/archive-handlers.js';
import { OAuthTokens } from './tools/http/oauth-tokens.js';
import { OAuthSignIns } from './tools/http/oauth-sign-in.js';
import { oauthHandlers } from './tools/http/oauth-handlers.js';
import { OAuthCallbackServer } from './common/oauth-callback.js';
import { executionHandlers } from './tools/handlers.js';
import { TesterBooks } from './tester/tester-book.js';
import { createInvoker, type InvokeHooks, type Invoker } from './tools/invoker.js';
import { createLocalRegistry } from './tools/local/registry.js';
import { scriptRunner } from './tools/script/runner.js';
import { findToolByName } from './tools/script/tool-calls.js';
import { createDoor } from './consent/door.js';
import { prepareScriptTool } from './tools/script/prepare.js';
import { recipeRunner } from './tools/recipe/runner.js';
import { recipePreparer } from './tools/recipe/prepare.js';
import { findStepTool, latestRecord } from './tools/recipe/find.js';
import type { ToolInput } from '../shared/schemas/tool.js';
import { scriptHandlers } from './tools/script/handlers.js';
import { ScriptPool } from './scripts/script-pool.js';
import { CompiledScriptCache } from './scripts/compiled-cache.js';
import { descriptionConverter } from './imports/convert-elsewhere.js';
import type { LaunchImportProcess } from './imports/import-process.js';
import { importWorkerUrl } from './imports/worker-location.js';
import { sandboxWorkerUrl, signatureWorkerUrl } from './scripts/worker-location.js';
import { SignatureReader } from './scripts/signature-reader.js';
import type { HttpExecutorDeps } from './tools/http/executor.js';
import { createToolResolver, type ToolResolver } from './tools/resolver.js';
import { runnerAvailability, type ToolRunners } from './tools/runners.js';
import { httpRunner } from './tools/http/runner.js';
import { RateLimiter } from './tools/http/rate-limit.js';
import { localRunner } from './tools/local/runner.js';
import { fetchTransport, undiciTransport } from './tools/http/transport.js';

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

export type { LaunchImportProcess } from './imports/import-process.js';

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

/**
 * Wires the services by constructor injection. Hosts (Electron, the browser
 * host, tests) differ only in what they pass here.
 */
export async function createCore(options: CoreOptions): Promise<Core> {
  const dataDir = path.resolve(options.dataDir);
  // Patterns inside JSONPath (recipes' templates and conditions, HTTP extractions) run on the linear-time engine.
  await runJsonPathPatternsLinearly();
  await makePrivateFolder(dataDir);
  const clock = options.clock ?? systemClock;
  const log = options.log;
  const events = createEventBus((error) => log.warn('event listener failed', { error: String(error) }));
  const timers: NodeJS.Timeout[] = [];
  const every = (ms: number, task: () => void) => {
    const timer = setInterval(task, ms);
    timer.unref();
    timers.push(timer);
  };

  const layout = createLayout(dataDir);
  const leftovers = await removeStaleTemporaries({
    dataDir,
    now: clock.now().getTime(),
    lockHeldFor: (folder) => {
      const bundleID = path.relative(layout.bundlesDir, folder).split(path.sep)[0];
      return bundleID && !bundleID.startsWith('..') && isUuidV7(bundleID) ? isFileLockHeld(layout.lockTarget(`bundle-${bundleID}`)) : Promise.resolve(false);
    },
  });
  if (leftovers.length) log.info('removed temporary files that interrupted writes left behind', { files: leftovers });
  // The MCP server is made after the store: until then there is no one to tell.
  let shareToolsChanged = () => {};
  const store = await ToolStore.open({
    layout,
    validator: createDocumentValidator(createAjv({ strict: false })),
    clock,
    log,
    onChange: (change, source) => {
      events.publish({ type: 'store.changed', source, ...change });
      shareToolsChanged();
    },
    readOnlySources: [builtinSource(layout, SHIPPED_BUNDLES)],
  });
  const settings = createSettingsStore(dataDir, log, SHIPPED_ALLOWED_HOSTS);
  // Tools, imports and MCP configs get the person's secrets only; provider keys and sign-in tokens are Toolbelt's.
  const { secrets, toolbelt: ownSecrets } = createSecretStores(dataDir, options.cipher, clock);
  // An injected fetch (tests) is used as given; otherwise HTTP tools go through undici directly.
  const httpSend = options.fetch ? { send: fetchTransport(options.fetch), close: async () => undefined } : undiciTransport();
  const questions = new LiveQuestions({ events, clock });
  // One loopback redirect for every browser sign-in: MCP servers' and HTTP tools'.
  const oauthCallbacks = new OAuthCallbackServer();
  const oauthTokens = new OAuthTokens(ownSecrets, () => clock.now().getTime());
  const signIns = new OAuthSignIns({ tokens: oauthTokens, callbacks: oauthCallbacks, log });
  const mcpServers = new McpServers({
    layout,
    store,
    secrets,
    questions,
    clock,
    log,
    shellPath: options.shellPath ?? (() => loginShellPath()),
    oauthCallbacks,
    ...(options.mcpConnectTimeoutMs ? { connectTimeoutMs: options.mcpConnectTimeoutMs } : {}),
    offeringsChanged: (server) => events.publish({ type: 'mcpServers.offeringsChanged', server }),
  });
  const providers = createProviderStore(dataDir, ownSecrets, options.environment ?? {});
  // Model requests made inside a chat run are kept for its raw exchange view.
  const connect = createProviderFactory({ fetch: recordingFetch(options.fetch ?? globalThis.fetch), maxRetries: options.providerRetries });
  // Whether a window is there to ask the person (approvals of MCP clients' and agents' calls).
  const windowOpen = options.windowOpen ?? (() => events.listenerCount > 0);
  // Tool search: one full-text index of the catalogue, kept in step with the store, for every chat and agent.
  const toolSearch = {
    catalogue: new SearchCatalogue(store),
    tool: TOOL_SEARCH_TOOL,
    discoveryDefault: () => settings.get().toolDiscovery ?? 'auto',
  };
  // Script tools run in worker threads, started with the first script call.
  let scriptPool: ScriptPool | undefined;
  const scripts = () =>
    (scriptPool ??= new ScriptPool({ workerUrl: options.scriptWorker ?? sandboxWorkerUrl(), size: Math.max(1, Math.min(4, os.availableParallelism() - 1)), log }));
  // Scripts' signatures are read on a thread of their own, within a time and memory budget.
  const signatures = new SignatureReader({ workerUrl: options.signatureWorker ?? signatureWorkerUrl(), log });
  // With script tools in the store, a worker starts now, so their first call does not wait for one.
  let warmedUp = Promise.resolve();
  if ([...store.allTools()].some((record) => record.kind === 'valid' && record.tool.type === 'script')) {
    const warming = scripts().warm();
    inBackground(warming, (error) => log.warn('the script sandbox did not start ahead of its first call', { error: String(error) }));
    warmedUp = warming.then(
      () => undefined,
      () => undefined,
    );
  }
  const httpExecutor: HttpExecutorDeps = {
    send: httpSend.send,
    now: () => clock.now().getTime(),
    rateLimiter: new RateLimiter(() => clock.now().getTime()),
    oauthTokens,
    ...(options.sleep ? { sleep: options.sleep } : {}),
  };
  const bundleHttp = (bundleID: string) => {
    const bundle = store.bundle(bundleID);
    return bundle?.kind === 'valid' ? { name: bundle.bundle.displayName, ...(bundle.bundle.http ? { http: bundle.bundle.http } : {}) } : undefined;
  };
  const runners: ToolRunners = {
    // An agent's calls go through the resolver and invoker the runners make up: read when a call runs, after both exist.
    agent: agentRunner({
      search: toolSearch,
      providers,
      connect,
      resolver: () => resolver,
      invoker: () => invoker,
      now: () => clock.now().toISOString(),
      log,
      questions,
      windowOpen,
    }),
    mcp: mcpRunner(mcpServers),
    local: localRunner({ registry: createLocalRegistry(CORE_FUNCTIONS), secrets, settings, clock, log }),
    http: httpRunner({
      secrets,
      settings,
      bundle: bundleHttp,
      executor: httpExecutor,
    }),
    script: scriptRunner({
      pool: scripts,
      compiledCache: new CompiledScriptCache(path.join(dataDir, 'cache', 'scripts'), dataDir, log),
      readScript: signatures.read,
      secrets,
      settings,
      executor: httpExecutor,
      bundle: bundleHttp,
      calls: {
        find: (name) => findToolByName(store, name),
        invoker: () => invoker,
      },
    }),
    recipe: recipeRunner({
      find: (ref) => findStepTool(store, ref),
      check: (record) => resolver.check(record),
      invoker: () => invoker,
    }),
  };
  const resolver = createToolResolver({ store, availability: runnerAvailability(runners) });
  const catalog = new ToolCatalog(store, resolver);
  const invoker = createInvoker({ store, resolver, runners, clock, log, door: createDoor({ questions, windowOpen }), ...(options.invokeHooks ? { hooks: options.invokeHooks } : {}) });
  const chatFiles = await ChatFiles.open(dataDir, log);
  const chats = new ChatEngine({
    search: toolSearch,
    files: chatFiles,
    providers,
    connect,
    store,
    invoker,
    resolver,
    lockFor: (chatId) => path.join(dataDir, 'locks', 'chats', chatId),
    events,
    clock,
    log,
  });
  await chats.recover();
  const mcpShare = new McpShare({
    layout,
    catalogue: toolSearch.catalogue,
    cipher: options.cipher,
    store,
    resolver,
    invoker,
    events,
    clock,
    log,
    app: options.app,
    windowOpen,
    stdioCommand: options.mcpShare?.stdioCommand ?? { command: 'toolbelt-mcp', args: ['--data-dir', dataDir] },
    ...(options.mcpShare?.waitingNoticeMs ? { waitingNoticeMs: options.mcpShare.waitingNoticeMs } : {}),
    ...(options.mcpShare?.listenerLimits ? { listenerLimits: options.mcpShare.listenerLimits } : {}),
  });
  shareToolsChanged = () => mcpShare.toolsChanged();
  await mcpShare.open({ listen: options.mcpShare?.listen ?? false });
  await mcpServers.open();
  let watcher: StoreWatcher | null = null;
  if (options.watchFiles !== false) {
    await makePrivateFolder(layout.bundlesDir);
    watcher = await watchStore(store, layout, log);
  }

  const reap = () =>
    inBackground(
      store.reaper.reap().then((removed) => removed.length && log.info('removed deleted bundles', { bundleIDs: removed })),
      (error) => log.warn('reaping deleted bundles failed', { error: String(error) }),
    );
  reap();
  every(options.reaperIntervalMs ?? 60 * 60 * 1000, reap);
  every(options.heartbeatMs ?? 15_000, () => events.publish({ type: 'app.heartbeat', at: clock.now().toISOString() }));

  // Before a tool is written: a script's schema read from its function; a recipe checked for loops through the recipes it calls.
  const prepareRecipe = recipePreparer({ find: (ref) => { const found = latestRecord(store, ref); return found?.kind === 'valid' ? found.tool : undefined; } });
  const prepareTool = async (tool: ToolInput, at: { bundleID?: string; slug?: string }) => prepareRecipe(await prepareScriptTool(tool, signatures.read), at);
  const calls = createCallRegistry();
  const capabilities = capabilityReader(connect);
  const dispatcher = createDispatcher(
    {
      ...appHandlers(options, dataDir, clock, calls),
      ...storeHandlers(store, catalog, prepareTool),
      ...scriptHandlers(signatures.read),
      ...importHandlers(store, settings, secrets, clock, descriptionConverter(options.importWorker ?? importWorkerUrl(), log, options.launchImportProcess)),
      ...archiveHandlers(store, secrets, clock),
      ...oauthHandlers({ store, settings, secrets, signIns }),
      ...executionHandlers(store, invoker, resolver, settings, secrets, new TesterBooks(dataDir, clock, log), events),
      ...providerHandlers(providers, connect, () => performance.now(), capabilities),
      ...mcpHandlers(mcpServers, options.claudeDesktopConfig ?? claudeDesktopConfigPath()),
      ...mcpAppHandlers({
        resolver,
        invoker,
        rawResource: (server, uri) => mcpServers.rawResource(server, uri),
        ...(options.appDocuments ? { documents: options.appDocuments } : {}),
      }),
      ...questionHandlers(questions),
      ...mcpShareHandlers(mcpShare),
      ...chatHandlers({ files: chatFiles, engine: chats, providers, store, events, clock }),
      ...contextHandlers({
        search: toolSearch,
        files: chatFiles,
        providers,
        capabilities,
        resolver,
        instructionsOf: (tools) => invoker.instructionsOf(tools),
        now: () => clock.now().toISOString(),
        changed: (chatId) => events.publish({ type: 'chats.changed', chatIds: [chatId] }),
      }),
    },
    log,
    calls,
  );

  let closing: Promise<void> | null = null;
  return {
    dispatcher,
    events,
    dataDir,
    store,
    invoker,
    resolver,
    chats,
    mcpShare,
    mcpServers,
    warmedUp,
    // Hosts and tests may both close the core; the second call waits for the first.
    close() {
      closing ??= (async () => {
        for (const timer of timers) clearInterval(timer);
        await chats.close();
        questions.close();
        await mcpShare.close();
        await mcpServers.close();
        await scriptPool?.close();
        await signatures.close();
        await oauthCallbacks.close();
        await chatFiles.flush();
        await httpSend.close();
        await watcher?.close();
        await store.close();
      })();
      return closing;
    },
  };
}

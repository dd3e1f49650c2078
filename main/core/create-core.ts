import path from 'node:path';
import { isUuidV7 } from '../../shared/schemas/ids.js';
import { createEventBus } from '../api/event-bus.js';
import { SHIPPED_ALLOWED_HOSTS, SHIPPED_BUNDLES, TOOL_SEARCH_TOOL } from '../builtins/index.js';
import { ChatEngine } from '../chat/chat-engine.js';
import { PersonFiles } from '../chat/person-files.js';
import { ChatFiles } from '../chat/chat-files.js';
import { inBackground } from '../common/background.js';
import { systemClock } from '../common/clock.js';
import { isFileLockHeld } from '../common/file-lock.js';
import { makePrivateFolder } from '../common/json-files.js';
import { runJsonPathPatternsLinearly } from '../common/json-path-patterns.js';
import { OAuthCallbackServer } from '../tools/http/oauth-callback.js';
import { removeStaleTemporaries } from '../common/stale-temporaries.js';
import { createAjv } from '../common/validation.js';
import { McpShare } from '../mcp-server/mcp-share.js';
import { McpbInstaller } from '../mcp-client/mcpb/mcpb-installs.js';
import { McpRegistry } from '../mcp-client/registry/mcp-registry.js';
import { McpServers } from '../mcp-client/servers.js';
import { loginShellPath } from '../mcp-client/shell-path.js';
import { createProviderFactory } from '../providers/provider-factory.js';
import { createProviderStore } from '../providers/provider-store.js';
import { recordingFetch } from '../providers/raw-exchange.js';
import { LiveQuestions } from '../questions/live-questions.js';
import { createSecretStores } from '../secrets/secret-store.js';
import { createSettingsStore } from '../settings/settings-store.js';
import { createDocumentValidator } from '../store/document-validation.js';
import { createLayout, type StoreLayout } from '../store/layout.js';
import { builtinSource } from '../store/sources.js';
import { ToolStore } from '../store/tool-store.js';
import { watchStore, type StoreWatcher } from '../store/watcher.js';
import { OAuthSignIns } from '../tools/http/oauth-sign-in.js';
import { OAuthTokens } from '../tools/http/oauth-tokens.js';
import { fetchTransport, undiciTransport } from '../tools/http/transport.js';
import { SearchCatalogue } from '../tools/search/search-catalogue.js';
import type { Logger } from '../log.js';
import { wireOperations } from './operations.js';
import { descriptionConverter } from '../imports/convert-elsewhere.js';
import { importWorkerUrl } from '../imports/worker-location.js';
import type { Core, CoreOptions } from './options.js';
import { wireTools } from './tools.js';

export type { Core, CoreOptions, HostKind, LaunchImportProcess } from './options.js';

/**
 * The composition root: wires the services by constructor injection, in the
 * order they stand on each other (the data folder and the store; secrets,
 * settings, providers and MCP servers; the tools and their invoker, in
 * ./tools.ts; chats and Toolbelt's own MCP server; the operations, in
 * ./operations.ts). Hosts (Electron, the browser host, tests) differ only in
 * what they pass here.
 */
export async function createCore(options: CoreOptions): Promise<Core> {
  const dataDir = path.resolve(options.dataDir);
  // Patterns inside JSONPath (recipes' templates and conditions, HTTP extractions) run on the linear-time engine.
  await runJsonPathPatternsLinearly();
  await makePrivateFolder(dataDir);
  const clock = options.clock ?? systemClock;
  const log = options.log;
  const events = createEventBus((error) => log.warn('event listener failed', { error: String(error) }));
  const layout = createLayout(dataDir);
  await sweepInterruptedWrites(dataDir, layout, clock.now().getTime(), log);
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
  const toolSearch = { catalogue: new SearchCatalogue(store), tool: TOOL_SEARCH_TOOL, discoveryDefault: () => settings.get().toolDiscovery ?? 'auto' };
  // Before the tools: a chat's own hooks are read from the chats in memory at each of its calls.
  const chatFiles = await ChatFiles.open(dataDir, log);
  const chatHooks = (chatId: string) => chatFiles.hooksOf(chatId);
  const tools = wireTools({ dataDir, options, store, settings, secrets, questions, windowOpen, mcpServers, providers, connect, toolSearch, oauthTokens, send: httpSend.send, clock, log, chatHooks });
  const { invoker, resolver, sessionHooks } = tools;
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
    sessionHooks,
    personFiles: new PersonFiles(dataDir),
  });
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
  const mcpbInstaller = new McpbInstaller({ dataDir, servers: mcpServers, secrets, clock });
  await mcpbInstaller.open();
  // Registries are asked with the injected fetch when there is one (tests keep to loopback), like HTTP tools.
  const mcpRegistry = new McpRegistry({ registries: () => settings.get().mcpRegistries ?? [], servers: mcpServers, secrets, clock, ...(options.fetch ? { fetch: options.fetch } : {}) });
  // After the MCP servers are known: a run recovered here may follow an MCP task on one of them at once.
  await chats.recover();
  let watcher: StoreWatcher | null = null;
  if (options.watchFiles !== false) {
    await makePrivateFolder(layout.bundlesDir);
    watcher = await watchStore(store, layout, log);
  }
  const timers = [
    every(options.reaperIntervalMs ?? 60 * 60 * 1000, reapDeletedBundles(store, log)),
    every(options.heartbeatMs ?? 15_000, () => events.publish({ type: 'app.heartbeat', at: clock.now().toISOString() })),
  ];
  const descriptions = descriptionConverter(options.importWorker ?? importWorkerUrl(), log, options.launchImportProcess);
  const dispatcher = wireOperations({
    dataDir,
    options,
    store,
    settings,
    secrets,
    providers,
    connect,
    tools,
    toolSearch,
    mcpServers,
    mcpbInstaller,
    mcpRegistry,
    mcpShare,
    questions,
    signIns,
    chats: { engine: chats, files: chatFiles },
    events,
    descriptions,
    clock,
    log,
  });

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
    warmedUp: tools.warmedUp,
    // Hosts and tests may both close the core; the second call waits for the first.
    close() {
      closing ??= (async () => {
        for (const timer of timers) clearInterval(timer);
        descriptions.close();
        // Before the runs stop: a tool call following an MCP task leaves it to its server, and its chat follows it again at the next start.
        mcpServers.leaveTasks();
        await chats.close();
        questions.close();
        await mcpShare.close();
        await mcpServers.close();
        await tools.close();
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

/** Temporary files that interrupted writes left behind (a crash, a full disk), removed unless their writer still runs. */
async function sweepInterruptedWrites(dataDir: string, layout: StoreLayout, now: number, log: Logger): Promise<void> {
  const leftovers = await removeStaleTemporaries({
    dataDir,
    now,
    lockHeldFor: (folder) => {
      const bundleID = path.relative(layout.bundlesDir, folder).split(path.sep)[0];
      return bundleID && !bundleID.startsWith('..') && isUuidV7(bundleID) ? isFileLockHeld(layout.lockTarget(`bundle-${bundleID}`)) : Promise.resolve(false);
    },
  });
  if (leftovers.length) log.info('removed temporary files that interrupted writes left behind', { files: leftovers });
}

/** Removes bundles deleted past their undo time: now, and each time it is called. */
function reapDeletedBundles(store: ToolStore, log: Logger): () => void {
  const reap = () =>
    inBackground(
      store.reaper.reap().then((removed) => removed.length && log.info('removed deleted bundles', { bundleIDs: removed })),
      (error) => log.warn('reaping deleted bundles failed', { error: String(error) }),
    );
  reap();
  return reap;
}

/** A task every `ms`, which never keeps the process alive. */
function every(ms: number, task: () => void): NodeJS.Timeout {
  const timer = setInterval(task, ms);
  timer.unref();
  return timer;
}

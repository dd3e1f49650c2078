import type { ToolPutInput } from '../../shared/schemas/tool.js';
import { createCallRegistry } from '../api/call-registry.js';
import { createDispatcher, type Dispatcher } from '../api/dispatcher.js';
import type { EventBus } from '../api/event-bus.js';
import { mcpAppHandlers } from '../mcp-apps/app-handlers.js';
import type { ChatEngine } from '../chat/chat-engine.js';
import type { ChatFiles } from '../chat/chat-files.js';
import { contextHandlers } from '../chat/context-budget.js';
import { chatHandlers } from '../chat/handlers.js';
import type { Clock } from '../common/clock.js';
import { archiveHandlers } from '../imports/archive-handlers.js';
import type { DescriptionConverter } from '../imports/convert-elsewhere.js';
import { importHandlers } from '../imports/handlers.js';
import type { Logger } from '../log.js';
import type { ToolSearchDeps } from '../loop/chat-tool-search.js';
import { mcpShareHandlers } from '../mcp-server/handlers.js';
import type { McpShare } from '../mcp-server/mcp-share.js';
import { claudeDesktopConfigPath } from '../mcp-client/claude-desktop.js';
import { mcpHandlers } from '../mcp-client/handlers.js';
import type { McpServers } from '../mcp-client/servers.js';
import type { McpbInstaller } from '../mcp-client/mcpb/mcpb-installs.js';
import type { McpRegistry } from '../mcp-client/registry/mcp-registry.js';
import { installHandlers } from '../mcp-client/install-handlers.js';
import { LinkInstaller } from '../mcp-client/link-install.js';
import type { AgentRunnerDeps } from '../agents/agent-runner.js';
import { capabilityReader } from '../providers/capabilities.js';
import { providerHandlers } from '../providers/handlers.js';
import type { ProviderStore } from '../providers/provider-store.js';
import { questionHandlers } from '../questions/handlers.js';
import type { LiveQuestions } from '../questions/live-questions.js';
import type { SecretStore } from '../secrets/secret-store.js';
import type { SettingsStore } from '../settings/settings-store.js';
import { ToolCatalog } from '../store/catalog.js';
import { storeHandlers } from '../store/handlers.js';
import type { ToolStore } from '../store/tool-store.js';
import { TesterBooks } from '../tester/tester-book.js';
import { executionHandlers } from '../tools/handlers.js';
import { hookTrialHandlers } from '../tools/hook-trial.js';
import { oauthHandlers } from '../tools/http/oauth-handlers.js';
import type { OAuthSignIns } from '../tools/http/oauth-sign-in.js';
import { latestRecord } from '../tools/recipe/find.js';
import { recipePreparer } from '../tools/recipe/prepare.js';
import { scriptHandlers } from '../tools/script/handlers.js';
import { prepareScriptTool } from '../tools/script/prepare.js';
import { appHandlers } from './app-handlers.js';
import type { CoreOptions } from './options.js';
import type { ToolWiring } from './tools.js';

/** The services the operations reach, made before them. */
export interface OperationDeps {
  dataDir: string;
  options: CoreOptions;
  store: ToolStore;
  settings: SettingsStore;
  secrets: SecretStore;
  providers: ProviderStore;
  connect: AgentRunnerDeps['connect'];
  tools: ToolWiring;
  toolSearch: ToolSearchDeps;
  mcpServers: McpServers;
  mcpbInstaller: McpbInstaller;
  mcpRegistry: McpRegistry;
  mcpShare: McpShare;
  questions: LiveQuestions;
  signIns: OAuthSignIns;
  chats: { engine: ChatEngine; files: ChatFiles };
  events: EventBus;
  /** API descriptions read and converted in a process of their own. */
  descriptions: DescriptionConverter;
  clock: Clock;
  log: Logger;
}

/**
 * Every operation of shared/operations/, each group from the service that
 * answers it, behind the one dispatcher that validates what comes in and
 * goes out.
 */
export function wireOperations(deps: OperationDeps): Dispatcher {
  const { dataDir, options, store, settings, secrets, providers, connect, events, clock, log } = deps;
  const { invoker, resolver, signatures } = deps.tools;
  // Before a tool is written: a script's schema read from its function; a recipe checked for loops through the recipes it calls.
  const prepareRecipe = recipePreparer({
    find: (ref) => {
      const found = latestRecord(store, ref);
      return found?.kind === 'valid' ? found.tool : undefined;
    },
  });
  const prepareTool = async (tool: ToolPutInput, at: { bundleID?: string; slug?: string }) => prepareRecipe(await prepareScriptTool(tool, signatures.read), at);
  const calls = createCallRegistry();
  const capabilities = capabilityReader(connect);
  return createDispatcher(
    {
      ...appHandlers(options, dataDir, clock, calls),
      ...storeHandlers(store, new ToolCatalog(store, resolver, (query, among, limit) => deps.toolSearch.catalogue.scored(query, among, limit)), prepareTool),
      ...scriptHandlers(signatures.read),
      ...importHandlers(store, settings, secrets, clock, deps.descriptions),
      ...archiveHandlers(store, secrets, clock),
      ...oauthHandlers({ store, settings, secrets, signIns: deps.signIns }),
      ...executionHandlers(store, invoker, resolver, settings, secrets, new TesterBooks(dataDir, clock, log), events),
      ...hookTrialHandlers(store, deps.tools.hooksFor),
      ...providerHandlers(providers, connect, () => performance.now(), capabilities),
      ...mcpHandlers(deps.mcpServers, options.claudeDesktopConfig ?? claudeDesktopConfigPath()),
      ...installHandlers(deps.mcpbInstaller, deps.mcpRegistry, new LinkInstaller(deps.mcpServers), deps.mcpServers),
      ...mcpAppHandlers({
        resolver,
        invoker,
        rawResource: (server, uri) => deps.mcpServers.rawResource(server, uri),
        ...(options.appDocuments ? { documents: options.appDocuments } : {}),
      }),
      ...questionHandlers(deps.questions),
      ...mcpShareHandlers(deps.mcpShare),
      ...chatHandlers({ files: deps.chats.files, engine: deps.chats.engine, providers, store, events, clock }),
      ...contextHandlers({
        search: deps.toolSearch,
        files: deps.chats.files,
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
}

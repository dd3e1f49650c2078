import type { OperationDefinition } from '../operation.js';
import { appHealth, appInfo, appPickPath, callsCancel } from './app.js';
import { testerBook, testerDeleteExample, testerSaveExample } from './tester.js';
import {
  chatsAnswer, chatsApprove, chatsCancel, chatsContext, chatsContinue, chatsCreate, chatsDropOldResults, chatsDelete, chatsFile, chatsGet, chatsList, chatsRegenerate, chatsRunTool, chatsSalvage, chatsSearch, chatsSend,
  chatsShareToolRun, chatsUpdate, chatsRawExchanges, chatsAppContext,
} from './chats.js';
import {
  mcpServersDelete,
  mcpServersGetPrompt,
  mcpServersImport,
  mcpServersImportClaudeDesktop,
  mcpServersList,
  mcpServersPrompts,
  mcpServersPut,
  mcpServersReadResource,
  mcpServersResources,
  mcpServersRestart,
} from './mcp.js';
import { linksInstallMcp, linksPreview, mcpbInstall, mcpbList, mcpbPreview, mcpbUninstall, mcpRegistryInstall, mcpRegistryPlan, mcpRegistrySearch } from './mcp-install.js';
import { mcpAppsCallTool, mcpAppsReadResource, mcpAppsResource } from './mcp-apps.js';
import { mcpShareActivity, mcpShareBundle, mcpShareConfigure, mcpShareConnection, mcpShareStatus } from './mcp-share.js';
import { oauthSignIn, oauthSignOut, oauthState } from './oauth.js';
import { questionsAnswer, questionsList } from './questions.js';
import { bundlesExport, bundlesImportArchive, importsOpenApiApply, importsOpenApiPreview, importsPrepare } from './imports.js';
import { modelsCapabilities, modelsList, providersDelete, providersList, providersPut, providersTest } from './providers.js';
import { bundlesDelete, bundlesList, bundlesPatch, bundlesPut, bundlesRemoveFolder } from './bundles.js';
import { hooksTry } from './hooks.js';
import { secretsDelete, secretsList, secretsPut, settingsGet, settingsPatch } from './settings.js';
import { toolsDelete, toolsGet, toolsMetrics, toolsInvoke, toolsList, toolsPatch, toolsPut, toolsSearch, toolsTry, toolsValidate, toolsCheckArgs, toolsReadScript } from './tools.js';

/**
 * The operation table: the single list of everything the core can be asked
 * to do. Keys are the operation names used over IPC and by the typed client.
 */
export const operations = {
  'app.info': appInfo,
  'app.health': appHealth,
  'app.pickPath': appPickPath,
  'calls.cancel': callsCancel,
  'bundles.put': bundlesPut,
  'bundles.patch': bundlesPatch,
  'bundles.delete': bundlesDelete,
  'bundles.removeFolder': bundlesRemoveFolder,
  'bundles.list': bundlesList,
  'tools.put': toolsPut,
  'tools.patch': toolsPatch,
  'tools.delete': toolsDelete,
  'tools.get': toolsGet,
  'tools.metrics': toolsMetrics,
  'tools.list': toolsList,
  'tools.search': toolsSearch,
  'tools.invoke': toolsInvoke,
  'tools.validate': toolsValidate,
  'tools.try': toolsTry,
  'tools.checkArgs': toolsCheckArgs,
  'tools.readScript': toolsReadScript,
  'hooks.try': hooksTry,
  'settings.get': settingsGet,
  'settings.patch': settingsPatch,
  'secrets.list': secretsList,
  'secrets.put': secretsPut,
  'secrets.delete': secretsDelete,
  'providers.list': providersList,
  'providers.put': providersPut,
  'providers.delete': providersDelete,
  'providers.test': providersTest,
  'models.list': modelsList,
  'models.capabilities': modelsCapabilities,
  'mcpServers.list': mcpServersList,
  'mcpServers.put': mcpServersPut,
  'mcpServers.delete': mcpServersDelete,
  'mcpServers.restart': mcpServersRestart,
  'mcpServers.import': mcpServersImport,
  'mcpServers.importClaudeDesktop': mcpServersImportClaudeDesktop,
  'mcpServers.resources': mcpServersResources,
  'mcpServers.readResource': mcpServersReadResource,
  'mcpServers.prompts': mcpServersPrompts,
  'mcpServers.getPrompt': mcpServersGetPrompt,
  'mcpb.preview': mcpbPreview,
  'mcpb.install': mcpbInstall,
  'mcpb.list': mcpbList,
  'mcpb.uninstall': mcpbUninstall,
  'mcpRegistry.search': mcpRegistrySearch,
  'mcpRegistry.plan': mcpRegistryPlan,
  'mcpRegistry.install': mcpRegistryInstall,
  'links.preview': linksPreview,
  'links.installMcp': linksInstallMcp,
  'mcpApps.resource': mcpAppsResource,
  'mcpApps.callTool': mcpAppsCallTool,
  'mcpApps.readResource': mcpAppsReadResource,
  'mcpShare.status': mcpShareStatus,
  'mcpShare.configure': mcpShareConfigure,
  'mcpShare.shareBundle': mcpShareBundle,
  'mcpShare.connection': mcpShareConnection,
  'mcpShare.activity': mcpShareActivity,
  'imports.prepare': importsPrepare,
  'imports.openapiPreview': importsOpenApiPreview,
  'imports.openapiApply': importsOpenApiApply,
  'bundles.export': bundlesExport,
  'bundles.importArchive': bundlesImportArchive,
  'oauth.state': oauthState,
  'oauth.signIn': oauthSignIn,
  'oauth.signOut': oauthSignOut,
  'tester.book': testerBook,
  'tester.saveExample': testerSaveExample,
  'tester.deleteExample': testerDeleteExample,
  'questions.list': questionsList,
  'questions.answer': questionsAnswer,
  'chats.create': chatsCreate,
  'chats.list': chatsList,
  // Before chats.get: the first route that matches answers, and "search" is not a chat id.
  'chats.search': chatsSearch,
  'chats.get': chatsGet,
  'chats.salvage': chatsSalvage,
  'chats.update': chatsUpdate,
  'chats.delete': chatsDelete,
  'chats.file': chatsFile,
  'chats.send': chatsSend,
  'chats.regenerate': chatsRegenerate,
  'chats.continue': chatsContinue,
  'chats.cancel': chatsCancel,
  'chats.approve': chatsApprove,
  'chats.answer': chatsAnswer,
  'chats.runTool': chatsRunTool,
  'chats.shareToolRun': chatsShareToolRun,
  'chats.appContext': chatsAppContext,
  'chats.rawExchanges': chatsRawExchanges,
  'chats.context': chatsContext,
  'chats.dropOldResults': chatsDropOldResults,
} as const satisfies Record<string, OperationDefinition>;

export type Operations = typeof operations;
export type OperationName = keyof Operations;

export const OPERATION_NAMES = Object.keys(operations) as OperationName[];

export function isOperationName(value: unknown): value is OperationName {
  return typeof value === 'string' && Object.hasOwn(operations, value);
}

import { scriptHookRunner } from '../tools/script/script-hook.js';
import { isHostAllowed } from '../tools/http/allowed-hosts.js';
import { createToolHooks, type ToolHookDeps, type ToolHooks } from '../hooks/tool-hooks.js';
import type { Hooks } from '../../shared/schemas/hooks.js';
import os from 'node:os';
import path from 'node:path';
import { agentRunner } from '../agents/agent-runner.js';
import { CORE_FUNCTIONS } from '../builtins/core/functions/index.js';
import { inBackground } from '../common/background.js';
import type { Clock } from '../common/clock.js';
import { createDoor } from '../consent/door.js';
import type { Logger } from '../log.js';
import { mcpRunner } from '../mcp-client/runner.js';
import type { McpServers } from '../mcp-client/servers.js';
import type { AgentRunnerDeps } from '../agents/agent-runner.js';
import type { ProviderStore } from '../providers/provider-store.js';
import type { LiveQuestions } from '../questions/live-questions.js';
import { CompiledScriptCache } from '../script-sandbox/compiled-cache.js';
import { ScriptPool } from '../script-sandbox/script-pool.js';
import { SignatureReader } from '../script-sandbox/signature-reader.js';
import { sandboxWorkerUrl, signatureWorkerUrl } from '../script-sandbox/worker-location.js';
import type { SecretStore } from '../secrets/secret-store.js';
import type { SettingsStore } from '../settings/settings-store.js';
import type { ToolStore } from '../store/tool-store.js';
import { hooksSwitchedOn } from '../store/bundle-hooks.js';
import { createToolSpans } from '../telemetry/tool-spans.js';
import type { HttpExecutorDeps } from '../tools/http/executor.js';
import type { OAuthTokens } from '../tools/http/oauth-tokens.js';
import { RateLimiter } from '../tools/http/rate-limit.js';
import { httpRunner } from '../tools/http/runner.js';
import type { HttpSend } from '../tools/http/transport.js';
import { createInvoker, type FinishedCall, type Invoker } from '../tools/invoker.js';
import { createLocalRegistry } from '../tools/local/registry.js';
import { localRunner } from '../tools/local/runner.js';
import { findStepTool } from '../tools/recipe/find.js';
import { recipeRunner } from '../tools/recipe/runner.js';
import { createToolResolver, type ToolResolver } from '../tools/resolver.js';
import { runnerAvailability, type ToolRunners } from '../tools/runners.js';
import { scriptRunner } from '../tools/script/runner.js';
import { findToolByName } from '../tools/script/tool-calls.js';
import type { ToolSearchDeps } from '../loop/chat-tool-search.js';
import type { SessionHooks } from '../loop/loop-host.js';
import type { CoreOptions } from './options.js';

/** What running tools stands on, made before: the store, the person's settings and secrets, the ways out. */
export interface ToolWiringDeps {
  dataDir: string;
  options: CoreOptions;
  store: ToolStore;
  settings: SettingsStore;
  secrets: SecretStore;
  questions: LiveQuestions;
  windowOpen: () => boolean;
  mcpServers: McpServers;
  providers: ProviderStore;
  connect: AgentRunnerDeps['connect'];
  toolSearch: ToolSearchDeps;
  oauthTokens: OAuthTokens;
  send: HttpSend;
  clock: Clock;
  log: Logger;
  /** A chat's own hooks, by its id (the chats in memory). */
  chatHooks?: (chatId: string) => Hooks | undefined;
}

export interface ToolWiring {
  resolver: ToolResolver;
  invoker: Invoker;
  /** The person's hooks on their messages and the ends of turns (chats). */
  sessionHooks: SessionHooks;
  /** The hooks as they run at calls, or (given a draft) those only: what `hooks.try` runs on a sample call. */
  hooksFor: (draft?: Hooks) => ToolHooks;
  /** Reads a script's signature on its own thread (saves, the tester, the runner's first compile). */
  signatures: SignatureReader;
  /** Settles once the script sandbox started ahead of first use (when the store has script tools); never rejects. */
  warmedUp: Promise<void>;
  close(): Promise<void>;
}

/**
 * The runner of each tool kind, the resolver that says whether a tool can
 * run, and the invoker every call goes through (its door asks the person).
 * Agents, scripts and recipes call tools through the same invoker, read when
 * a call runs (it is made from the runners).
 */
export function wireTools(deps: ToolWiringDeps): ToolWiring {
  const { dataDir, options, store, settings, secrets, clock, log } = deps;
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
  const executor: HttpExecutorDeps = {
    send: deps.send,
    now: () => clock.now().getTime(),
    rateLimiter: new RateLimiter(() => clock.now().getTime()),
    oauthTokens: deps.oauthTokens,
    ...(options.sleep ? { sleep: options.sleep } : {}),
  };
  const bundleHttp = (bundleID: string) => {
    const bundle = store.bundle(bundleID);
    return bundle?.kind === 'valid' ? { name: bundle.bundle.displayName, ...(bundle.bundle.http ? { http: bundle.bundle.http } : {}) } : undefined;
  };
  // Read late: the hooks are made after the runners, whose script runner runs script hooks.
  const sessionHooks: SessionHooks = { run: (event, sessionId, fields, names) => toolHooks.session(event, sessionId, fields, names) };
  const runners: ToolRunners = {
    agent: agentRunner({
      sessionHooks,
      search: deps.toolSearch,
      providers: deps.providers,
      connect: deps.connect,
      resolver: () => resolver,
      invoker: () => invoker,
      now: () => clock.now().toISOString(),
      log,
      questions: deps.questions,
      windowOpen: deps.windowOpen,
    }),
    mcp: mcpRunner(deps.mcpServers),
    local: localRunner({ registry: createLocalRegistry(CORE_FUNCTIONS), secrets, settings, clock, log }),
    http: httpRunner({ secrets, settings, bundle: bundleHttp, executor }),
    script: scriptRunner({
      pool: scripts,
      compiledCache: new CompiledScriptCache(path.join(dataDir, 'cache', 'scripts'), dataDir, log),
      readScript: signatures.read,
      secrets,
      settings,
      executor,
      bundle: bundleHttp,
      calls: { find: (name) => findToolByName(store, name), invoker: () => invoker },
    }),
    recipe: recipeRunner({ find: (ref) => findStepTool(store, ref), check: (record) => resolver.check(record), invoker: () => invoker }),
  };
  const resolver = createToolResolver({ store, availability: runnerAvailability(runners) });
  const door = createDoor({ questions: deps.questions, windowOpen: deps.windowOpen });
  const validBundle = (bundleID: string) => {
    const bundle = store.bundle(bundleID);
    return bundle?.kind === 'valid' ? bundle.bundle : undefined;
  };
  const hookDeps: ToolHookDeps = {
    hooks: () => settings.get().hooks,
    bundleSlug: (bundleID) => validBundle(bundleID)?.slug,
    ...(deps.chatHooks ? { chatHooks: deps.chatHooks } : {}),
    bundleHooks: (bundleID) => {
      const bundle = validBundle(bundleID);
      return bundle ? hooksSwitchedOn(bundle) : undefined;
    },
    cwd: dataDir,
    hostAllowed: (url) => isHostAllowed(url, settings.get().allowedHosts),
    runScript: scriptHookRunner(store, () => runners.script),
    log,
  };
  const toolHooks = createToolHooks(hookDeps);
  const spans = createToolSpans({ endpoint: () => settings.get().otlpTracesUrl || undefined, app: options.app, log });
  const observe = (call: FinishedCall) => {
    if (!spans.wanted()) return;
    try {
      const caller = call.caller as { kind?: unknown };
      const bundleSlug = validBundle(call.tool.bundleID)?.slug;
      spans.record({ ...call, ...(bundleSlug ? { bundleSlug } : {}), ...(typeof caller.kind === 'string' ? { callerKind: caller.kind } : {}) });
    } catch (error) {
      log.warn('a tool call could not be made a span', { error: String(error) });
    }
  };
  const invoker = createInvoker({ store, resolver, runners, clock, log, door, toolHooks, observe, ...(options.invokeHooks ? { hooks: options.invokeHooks } : {}) });
  return {
    resolver,
    invoker,
    sessionHooks,
    hooksFor: (draft) => (draft ? createToolHooks({ ...hookDeps, hooks: () => draft, bundleHooks: () => undefined, chatHooks: () => undefined }) : toolHooks),
    signatures,
    warmedUp,
    async close() {
      await spans.close();
      await scriptPool?.close();
      await signatures.close();
    },
  };
}

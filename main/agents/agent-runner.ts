import { newUuidV7 } from '../common/uuid-v7.js';
import { ToolbeltError } from '../../shared/errors.js';
import { forwardAbort } from '../common/signals.js';
import { AGENT_MAX_DEPTH, AGENT_MAX_TURNS_DEFAULT } from '../../shared/schemas/agent.js';
import type { Chat } from '../../shared/schemas/chat.js';
import { allCalls } from '../../shared/chat/chat-calls.js';
import type { ToolFile } from '../../shared/schemas/tool.js';
import type { Logger } from '../log.js';
import type { ConsentDeps } from '../consent/consent.js';
import { TurnLoop } from '../loop/turn-loop.js';
import type { SessionHooks } from '../loop/loop-host.js';
import { hookContextOf } from '../tools/hooked-result.js';
import type { ToolSearchDeps } from '../loop/chat-tool-search.js';
import type { ModelProvider } from '../providers/model.js';
import type { ProviderSettings, ProviderStore } from '../providers/provider-store.js';
import { InvokeFailure } from '../tools/invoke-error.js';
import type { Invoker } from '../tools/invoker.js';
import { NO_SECRETS } from '../common/redact.js';
import type { ToolResolver } from '../tools/resolver.js';
import type { RunContext, RunOutcome, ToolRunner } from '../tools/runners.js';
import { freshBudget, type RunBudget } from '../tools/run-lineage.js';
import { AgentHost } from './agent-host.js';
import { stepsOf } from './agent-steps.js';

type AgentTool = Extract<ToolFile, { type: 'agent' }>;

export interface AgentRunnerDeps extends ConsentDeps {
  providers: ProviderStore;
  connect: (settings: ProviderSettings) => ModelProvider;
  resolver: () => ToolResolver;
  /** The invoker the agent's own calls go through (read late: it is built from the runners). */
  invoker: () => Invoker;
  now: () => string;
  log: Logger;
  /** Tool search, for agents that reach many tools. */
  search?: ToolSearchDeps;
  /** The person's SubagentStart and SubagentStop hooks. */
  sessionHooks?: SessionHooks;
}

/**
 * Agent tools: a call runs a model of the agent's own (provider, model,
 * system prompt, tools, turn limit) on the arguments, on the same turn loop
 * a chat runs on (parallel calls, the deny-list, the halt policy, manual
 * mode, result limits, the raw exchange); its final answer is the result,
 * and what it said and called on the way are the result's steps. Cancelling
 * the call cancels the agent's model and its calls.
 */
export function agentRunner(deps: AgentRunnerDeps): ToolRunner<AgentTool> {
  return {
    availability: () => null,
    preview: async () => null,
    logLevel: () => 'info',
    run(tool, args, context) {
      const path = [...(context.agentPath ?? []), tool.displayName];
      if (path.length > AGENT_MAX_DEPTH) {
        return Promise.resolve(failed('agent_depth', `${tool.displayName} did not run: agents may call agents only ${AGENT_MAX_DEPTH} deep, and this call would be level ${path.length}.`));
      }
      // The run gets a signal of its own: the SDKs never take back the listener they put on a signal, and the caller's
      // may be long-lived (a chat run's, or the one shared by calls nobody can cancel).
      const own = new AbortController();
      const unfollow = forwardAbort(context.signal, own);
      // One budget for the whole run, shared by the agents it nests (a call outside any run starts its own).
      return runAgent(deps, tool, args, { ...context, signal: own.signal, budget: context.budget ?? freshBudget() }, path).finally(unfollow);
    },
  };
}

function failed(code: 'agent_depth' | 'agent_budget' | 'agent_failed' | 'cancelled', message: string, steps: RunOutcome['steps'] = []): RunOutcome {
  return { failure: new InvokeFailure(code, message), redactor: NO_SECRETS, attempts: 1, steps };
}

/** What the agent is asked: a `task` argument as it is, any other arguments as JSON. */
function taskOf(args: Record<string, unknown>): string {
  return typeof args.task === 'string' && Object.keys(args).length === 1 ? args.task : JSON.stringify(args, null, 2);
}

/** The agent's conversation, as the turn loop runs one: in memory, for the length of this call. */
function conversationOf(tool: AgentTool, args: Record<string, unknown>, now: string): Chat {
  const { impl } = tool;
  return {
    id: newUuidV7(),
    title: tool.displayName,
    providerId: impl.providerId,
    model: impl.model,
    ...(impl.system ? { system: impl.system } : {}),
    // Never offered to itself, whatever its file says (agents call agents through another agent, three deep).
    tools: { mode: 'auto', selected: impl.tools.filter((selection) => !(selection.bundleID === tool.bundleID && selection.slug === tool.slug)) },
    maxTurns: impl.maxTurns ?? AGENT_MAX_TURNS_DEFAULT,
    onToolError: impl.onToolError ?? 'continue',
    ...(impl.toolErrorLimit ? { toolErrorLimit: impl.toolErrorLimit } : {}),
    parallelToolCalls: impl.parallelToolCalls ?? true,
    status: 'running',
    pending: [],
    messages: [{ id: newUuidV7(), role: 'user', content: taskOf(args), createdAt: now }],
    alwaysAllowed: [],
    run: { runId: newUuidV7(), kind: 'model', turn: 0, startedAt: now },
    createdAt: now,
    updatedAt: now,
  };
}

async function runAgent(deps: AgentRunnerDeps, tool: AgentTool, args: Record<string, unknown>, context: RunContext & { budget: RunBudget }, path: string[]): Promise<RunOutcome> {
  try {
    await deps.providers.require(tool.impl.providerId);
  } catch (error) {
    return failed('agent_failed', `${tool.displayName} cannot run: ${error instanceof ToolbeltError ? error.message : String(error)}`);
  }
  const now = deps.now();
  const chat = conversationOf(tool, args, now);
  const findTool = async (ref: { bundleID: string; slug: string; version: string }) => {
    const readiness = await deps.resolver().resolve(ref);
    return readiness.ok ? readiness.record : undefined;
  };
  // SubagentStart: what its hooks say goes in the agent's instructions (they cannot stop it, as in Claude Code).
  const hooked = { sessionId: context.sessionId ?? 'toolbelt', agentType: tool.slug, names: [tool.slug, tool.displayName] };
  const started = await deps.sessionHooks?.run('SubagentStart', hooked.sessionId, { agent_id: chat.id, agent_type: hooked.agentType }, hooked.names);
  Object.assign(chat, hookContextOf(started?.context ?? []));
  const host = new AgentHost(deps, tool.displayName, path, context, chat.maxTurns, hooked);
  const loop = new TurnLoop({ ...deps, resolver: deps.resolver(), invoker: deps.invoker(), findTool: (bundleID, slug, version) => findTool({ bundleID, slug, version }) }, host);
  await loop.drive(chat, chat.run!.runId, context.signal, false, context.exchangeTag);
  // The hooks that ran on the agent (as it started, as it said it was done) go with the call's own, in its card.
  const hooks = [...(started?.runs ?? []), ...chat.messages.flatMap((message) => (message.role === 'assistant' ? (message.hooks ?? []) : []))];
  const outcome = endOf(tool, chat, host);
  return hooks.length ? { ...outcome, hooks } : outcome;
}

/** What the agent's run comes to, from how its conversation ended. */
function endOf(tool: AgentTool, chat: Chat, host: AgentHost): RunOutcome {
  const steps = stepsOf(chat);
  const ended = chat.lastRun;
  if (host.spent) return failed('agent_budget', host.spent, steps);
  switch (ended?.reason) {
    case 'stop':
    case 'length': {
      const last = chat.messages.at(-1);
      return { value: last?.role === 'assistant' ? last.content : '', redactor: NO_SECRETS, attempts: 1, steps };
    }
    case 'cancelled':
      return failed('cancelled', `${tool.displayName} was cancelled.`, steps);
    case 'max_turns':
      return failed('agent_failed', `${tool.displayName} gave no final answer within its ${chat.maxTurns} turns. Raise its turn limit, or ask for less.`, steps);
    case 'tool_error': {
      const failedCall = allCalls(chat).findLast(({ call }) => call.status === 'failed')?.call;
      const which = failedCall ? `${failedCall.tool?.displayName ?? failedCall.name} failed${failedCall.result && !failedCall.result.ok ? ` (${failedCall.result.error.code})` : ''}` : 'one of its tools failed';
      return failed('agent_failed', `${tool.displayName} stopped because ${which}, and it stops when its tools fail (its "When a tool fails" setting).`, steps);
    }
    default: {
      const turn = chat.messages.filter((message) => message.role === 'assistant').length;
      return failed('agent_failed', `${tool.displayName} stopped at turn ${turn}: ${ended?.error?.message ?? ended?.message ?? 'it ended without an answer.'}`, steps);
    }
  }
}

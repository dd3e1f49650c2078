import { v7 as uuidv7 } from 'uuid';
import { ToolbeltError } from '../../shared/errors.js';
import { forwardAbort } from '../common/signals.js';
import { AGENT_MAX_DEPTH, AGENT_MAX_TURNS_DEFAULT } from '../../shared/schemas/agent.js';
import type { AgentStep } from '../../shared/schemas/agent-step.js';
import type { AssistantMessage, ChatMessage, ToolCall } from '../../shared/schemas/chat.js';
import type { InvokeResult } from '../../shared/schemas/invocation.js';
import type { ToolFile } from '../../shared/schemas/tool.js';
import { resultLimits, withResultsCut } from '../tools/model-context.js';
import { callResult } from '../tools/call-result.js';
import { exposeTools, type ExposedTool } from '../tools/exposure.js';
import type { ModelProvider } from '../providers/model.js';
import type { ProviderSettings, ProviderStore } from '../providers/provider-store.js';
import { InvokeFailure } from '../tools/invoke-error.js';
import type { InvokeContext, Invoker } from '../tools/invoker.js';
import { NO_SECRETS } from '../common/redact.js';
import type { LiveQuestions } from '../questions/live-questions.js';
import { approvalNeeded, askPersonFor, createConsent } from '../consent/consent.js';
import type { ToolResolver } from '../tools/resolver.js';
import type { RunContext, RunOutcome, ToolRunner } from '../tools/runners.js';
import { freshBudget, RUN_BUDGET, spend } from '../tools/run-lineage.js';

type AgentTool = Extract<ToolFile, { type: 'agent' }>;

const cut = (text: string, limit: number) => (text.length > limit ? `${text.slice(0, limit)}…` : text);

/** Steps kept per agent call (the result's schema holds 200), and of a nested agent's, inside a step. */
const MAX_STEPS = 200;
const MAX_NESTED_STEPS = 20;

/** A nested agent's steps as kept inside one of ours: the first few, without their own nested steps. */
function nestedSteps(steps: AgentStep[] | undefined): { steps?: AgentStep[] } {
  if (!steps?.length) return {};
  return { steps: steps.slice(0, MAX_NESTED_STEPS).map(({ steps: _deeper, ...step }) => step) };
}

export interface AgentRunnerDeps {
  providers: ProviderStore;
  connect: (settings: ProviderSettings) => ModelProvider;
  resolver: () => ToolResolver;
  /** The resolver and invoker the agent's own calls go through (read late: both are built from the runners). */
  invoker: () => Invoker;
  now: () => string;
  /** Asks the person, in whichever window is open, whether a call an agent makes may run. */
  questions: Pick<LiveQuestions, 'ask'>;
  /** Whether a window is there to ask in. */
  windowOpen: () => boolean;
}

/**
 * Agent tools: a call runs a model of the agent's own (provider, model,
 * system prompt, tools, turn limit) on the arguments; its final answer is
 * the result, and what it said and called on the way are the result's
 * steps. Cancelling the call cancels the agent's model and its calls.
 */
export function agentRunner(deps: AgentRunnerDeps): ToolRunner<AgentTool> {
  return {
    availability: () => null,
    preview: async () => null,
    logLevel: () => 'info',
    run(tool, args, context) {
      const path = [...(context.agentPath ?? []), tool.displayName];
      if (path.length > AGENT_MAX_DEPTH) {
        return Promise.resolve(failed('agent_depth', `${tool.displayName} did not run: agents may call agents only ${AGENT_MAX_DEPTH} deep, and this call would be level ${path.length}.`, []));
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

function failed(code: 'agent_depth' | 'agent_budget' | 'agent_failed' | 'cancelled', message: string, steps: AgentStep[]): RunOutcome {
  return { failure: new InvokeFailure(code, message), redactor: NO_SECRETS, attempts: 1, steps };
}

/** What the agent is asked: a `task` argument as it is, any other arguments as JSON. */
function taskOf(args: Record<string, unknown>): string {
  return typeof args.task === 'string' && Object.keys(args).length === 1 ? args.task : JSON.stringify(args, null, 2);
}

async function runAgent(deps: AgentRunnerDeps, tool: AgentTool, args: Record<string, unknown>, context: RunContext, path: string[]): Promise<RunOutcome> {
  const { impl } = tool;
  const steps: AgentStep[] = [];
  const addStep = (step: AgentStep) => {
    if (steps.length < MAX_STEPS - 1) steps.push(step);
    else if (steps.length === MAX_STEPS - 1) steps.push({ turn: step.turn, kind: 'text', text: `Later steps are not kept (${MAX_STEPS} at most).` });
  };
  let provider: ModelProvider;
  try {
    provider = deps.connect(await deps.providers.require(impl.providerId));
  } catch (error) {
    return failed('agent_failed', `${tool.displayName} cannot run: ${error instanceof ToolbeltError ? error.message : String(error)}`, steps);
  }
  // Never offered to itself, whatever its file says (agents call agents through another agent, three deep).
  const ownTools = impl.tools.filter((selection) => !(selection.bundleID === tool.bundleID && selection.slug === tool.slug));
  const exposure = await exposeTools({ mode: 'auto', selected: ownTools }, deps.resolver());
  const budget = context.budget!;
  const spent = (what: 'model requests' | 'tool calls') =>
    failed('agent_budget', `${tool.displayName} stopped: the run it belongs to has used all its ${what} (${what === 'model requests' ? RUN_BUDGET.modelRequests : RUN_BUDGET.toolCalls}, across every agent in it). Ask for less, or split the task.`, steps);
  const messages: ChatMessage[] = [{ id: uuidv7(), role: 'user', content: taskOf(args), createdAt: deps.now() }];
  const maxTurns = impl.maxTurns ?? AGENT_MAX_TURNS_DEFAULT;
  // Its model reads each result up to the tool's limit, as a chat's does.
  const limits = resultLimits(ownTools);
  for (let turn = 1; turn <= maxTurns; turn++) {
    const message: AssistantMessage = { id: uuidv7(), role: 'assistant', content: '', toolCalls: [], model: impl.model, createdAt: deps.now() };
    const calls = [];
    if (!spend(budget, 'modelRequests')) return spent('model requests');
    try {
      for await (const event of provider.stream({
        model: impl.model,
        ...(impl.system ? { system: impl.system } : {}),
        messages: withResultsCut(messages, limits),
        tools: exposure.definitions,
        parallelToolCalls: false,
        signal: context.signal,
        ...(context.exchangeTag ? { exchangeTag: context.exchangeTag } : {}),
      })) {
        if (event.type === 'text-delta') message.content += event.text;
        else if (event.type === 'tool-call') calls.push(event.call);
      }
    } catch (error) {
      if (context.signal.aborted) return failed('cancelled', `${tool.displayName} was cancelled.`, steps);
      return failed('agent_failed', `${tool.displayName} stopped at turn ${turn}: ${error instanceof ToolbeltError ? error.message : String(error)}`, steps);
    }
    messages.push(message);
    if (message.content.trim()) addStep({ turn, kind: 'text', text: cut(message.content, 2_000) });
    if (calls.length === 0) return { value: message.content, redactor: NO_SECRETS, attempts: 1, steps };
    for (const completed of calls) {
      if (context.signal.aborted) return failed('cancelled', `${tool.displayName} was cancelled.`, steps);
      if (!spend(budget, 'toolCalls')) return spent('tool calls');
      const exposed = exposure.byName.get(completed.name);
      const started = Date.now();
      const result =
        completed.rawArgs !== undefined
          ? refusal('invalid_args', `The arguments for ${completed.name} were not a JSON object: ${cut(completed.rawArgs, 200)}`)
          : await runCall(deps, tool, path, exposed, [...exposure.byName.keys()], completed.name, completed.args, {
              signal: context.signal,
              agentPath: path,
              budget,
              ...(context.askUser ? { askUser: context.askUser } : {}),
              ...(context.exchangeTag ? { exchangeTag: context.exchangeTag } : {}),
            });
      const call: ToolCall = { id: completed.id, name: completed.name, args: completed.args, status: result.ok ? 'succeeded' : 'failed', result: callResult(result) };
      message.toolCalls.push(call);
      addStep({
        turn,
        kind: 'call',
        name: completed.name,
        ...(exposed ? { tool: exposed.record.tool.displayName } : {}),
        args: completed.args,
        ok: result.ok,
        summary: cut(result.ok ? (typeof result.value === 'string' ? result.value : (JSON.stringify(result.value) ?? 'null')) : `${result.error.code}: ${result.error.message}`, 500),
        durationMs: result.durationMs ?? Date.now() - started,
        ...nestedSteps(result.steps),
      });
      context.onProgress?.({ progress: turn, total: maxTurns, message: `${exposed?.record.tool.displayName ?? completed.name}: ${result.ok ? 'done' : 'failed'}` });
    }
  }
  return failed('agent_failed', `${tool.displayName} gave no final answer within its ${maxTurns} turns. Raise its turn limit, or ask for less.`, steps);
}

/** A call that did not run, as its result. */
function refusal(code: string, message: string): InvokeResult {
  return { ok: false, error: { code, message }, durationMs: 0, attempts: 0 };
}

/** One call of the agent's model: only to its own tools; one that asks first runs once the person allows it, through the one door. */
async function runCall(
  deps: AgentRunnerDeps,
  agent: AgentTool,
  path: string[],
  exposed: ExposedTool | undefined,
  toolNames: string[],
  name: string,
  args: Record<string, unknown>,
  context: InvokeContext,
): Promise<InvokeResult> {
  if (!exposed) return refusal('unknown_tool', `"${name}" is not one of ${agent.displayName}'s tools (${toolNames.join(', ') || 'it has none'}). Call one of those, or answer.`);
  const { tool } = exposed.record;
  const caller = { kind: 'agent' as const, path };
  const need = approvalNeeded(caller, tool, exposed.selection);
  if (need) {
    const verdict = await createConsent(deps).ask(caller, tool, args, need, context.signal);
    if (!verdict.allowed) return refusal(verdict.code, verdict.message);
  }
  try {
    // A tool that asks the person something (the ask-user built-in) asks in the window, as the agent.
    return await deps.invoker().invoke(exposed.record, { args }, { ...context, askUser: context.askUser ?? askPersonFor(deps, caller, context.signal) });
  } catch (error) {
    return refusal(error instanceof ToolbeltError ? error.code : 'internal', error instanceof ToolbeltError ? error.message : 'The tool failed unexpectedly.');
  }
}

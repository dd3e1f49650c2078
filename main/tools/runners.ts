import type { CallQuestion, RequestPreview, ToolCall, ToolProgress } from '../../shared/schemas/chat.js';

/** Where an MCP server keeps a call's task (as the chat keeps it). */
export type TaskReference = NonNullable<ToolCall['task']>;

export type { CallQuestion };
import type { AgentStep } from '../../shared/schemas/agent-step.js';
import type { HookRun } from '../../shared/schemas/hooks.js';
import type { ContentBlock } from '../../shared/mcp/content-blocks.js';
import type { RecipeResume, RecipeRun, RpcMessage, ScriptLogLine, TraceEntry } from '../../shared/schemas/invocation.js';
import type { ToolFile, ToolType } from '../../shared/schemas/tool.js';
import type { ExchangeTag } from '../providers/raw-exchange.js';
import type { InvokeFailure } from './invoke-error.js';
import type { LocalFunctionContext } from './local/registry.js';
import type { Redactor } from '../common/redact.js';
import type { RunBudget } from './run-lineage.js';
import type { RunnerAvailability } from './resolver.js';

/** What every call carries, whatever its kind. */
interface CallBasics {
  signal: AbortSignal;
  timeoutMs?: number;
  /** Record a trace entry per attempt (the tester asks for it). */
  trace: boolean;
  /** A question the tool asks the person (the ask-user built-in; an MCP server's elicitation). */
  askUser?: LocalFunctionContext['askUser'];
  /** The tool says how far it is (MCP progress notifications). */
  onProgress?: (progress: ToolProgress) => void;
  /** MCP tools that run as tasks: the task to follow again (the app restarted), and where to keep one the server makes. */
  task?: { resume?: TaskReference; started?: (reference: TaskReference) => void };
}

/** Calls made inside a run of agents, scripts and recipes, which go on counting it. */
interface RunLineageContext {
  /** The agents (scripts, recipes) this call is made inside, outermost first (they limit how deep they go). */
  agentPath?: readonly string[];
  /** What the run this call belongs to may still spend (agents count it down); a call outside any has its own. */
  budget?: RunBudget;
  /** The chat this call runs in runs its model's calls only when the person says so: an agent's calls ask too. */
  manual?: boolean;
  /** The chat the call belongs to, however deep inside agents, scripts and recipes: what hooks are told as session_id. */
  sessionId?: string;
}

/** What one kind of tool reads, and no other. */
interface KindContext {
  /** Local functions inside a chat that finds its tools by search: searches them (the tool_search built-in). */
  searchTools?: LocalFunctionContext['searchTools'];
  /** Agents: model requests made for this call go in the raw exchange of the chat run it belongs to. */
  exchangeTag?: ExchangeTag;
  /** Recipes: a run again from one of its steps, with the results its earlier steps had (the tester). */
  resume?: RecipeResume;
}

/** What a call made inside another carries on from it: manual runs, and the chat it belongs to. */
export function lineageFlags(context: Pick<RunLineageContext, 'manual' | 'sessionId'>): Pick<RunLineageContext, 'manual' | 'sessionId'> {
  return { ...(context.manual ? { manual: true } : {}), ...(context.sessionId ? { sessionId: context.sessionId } : {}) };
}

/** What one call needs besides the tool and its checked arguments: the invoker passes it through without reading a kind's own fields. */
export type RunContext = CallBasics & RunLineageContext & KindContext;


/** What a run produced: a value or a failure, with what is needed to report either with secrets masked. */
export interface RunOutcome {
  value?: unknown;
  /** MCP tools that sent content blocks beside structured content (the value): the blocks, when they say more than it. */
  content?: ContentBlock[];
  failure?: InvokeFailure;
  redactor: Redactor;
  attempts: number;
  trace?: TraceEntry[];
  /** MCP tools: the JSON-RPC messages of the call, when a trace was asked for. */
  rpc?: RpcMessage[];
  /** Agent tools: what the agent's model said and called. */
  steps?: AgentStep[];
  /** Agent tools: the SubagentStart and SubagentStop hooks that ran on the agent, shown with the call's own. */
  hooks?: HookRun[];
  /** The response's status and headers, for tools that have them. */
  meta?: { status: number; headers: Record<string, string> };
  /** Script tools: what the script wrote to its console (secrets masked by the runner). */
  logs?: ScriptLogLine[];
  /** Script tools: the memory its runtime held at its end. */
  memoryBytes?: number;
  /** Recipe tools: each finished step's result and the step that failed (kept in a trace, for running again from it). */
  recipe?: RecipeRun;
  /** The tool found nothing and says "empty" is an answer: its null skips the output check. */
  emptyByDesign?: boolean;
  /** The tool's bundle takes an answer its outputSchema refuses, with a warning, instead of failing the call. */
  mismatchIsWarning?: boolean;
}

/**
 * Runs tools of one kind. The invoker asks the runner of a tool's kind and
 * never branches on the kind itself; a new kind (MCP) is a new runner.
 */
export interface ToolRunner<T extends ToolFile = ToolFile> {
  /** Why this runner cannot take the tool at all (whatever its switches say), or null. */
  availability(tool: T): string | null;
  /** The request the call would make, secrets masked, for the approval dialog; null where there is none. */
  preview(tool: T, args: Record<string, unknown>): Promise<RequestPreview | null>;
  /**
   * The question a call begins with, for tools that ask the person before
   * anything else (the ask-user built-in): the caller keeps the call waiting
   * for the answer (a chat in its file, across a restart) and runs it with
   * that answer as what `askUser` says.
   */
  question?(tool: T, args: Record<string, unknown>): CallQuestion | null;
  run(tool: T, args: Record<string, unknown>, context: RunContext): Promise<RunOutcome>;
  /**
   * What the tool's source tells a model about using its tools (an MCP
   * server's `instructions`), with the source's name; said once per source
   * in the system prompt of a chat that can reach its tools.
   */
  instructions?(tool: T): SourceInstructions | null;
  /** How much of a call the log gets. */
  logLevel(tool: T): 'debug' | 'info' | 'quiet';
}

export interface SourceInstructions {
  /** Who says it, as the model reads it: "the MCP server github". */
  from: string;
  text: string;
}

export type ToolRunners = { [K in ToolType]: ToolRunner<Extract<ToolFile, { type: K }>> };

/** The runner of a tool's kind, typed for that tool. */
export function runnerFor(runners: ToolRunners, tool: ToolFile): ToolRunner {
  return runners[tool.type];
}

export function runnerAvailability(runners: ToolRunners): RunnerAvailability {
  return (tool) => runnerFor(runners, tool).availability(tool);
}

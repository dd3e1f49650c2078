import { ProtocolError, specTypeSchemas, type CallToolResult, type Client, type Tool, type Transport } from '@modelcontextprotocol/client';
import {
  createTaskSessionFromClient,
  JsonRpcResponseError,
  resultFromTaskOutcome,
  TaskCancelledError,
  toolDeclarationFromMcpTool,
  type ApplicationInputRequest,
  type ApplicationElicitResult,
  type SerializedTaskReference,
  type TaskEnabledSession,
  type TaskExecutionEvent,
  type ToolExecution,
  type V2RequestFraming,
} from '@modelcontextprotocol/ext-tasks/client';
import { TASKS_EXTENSION_ID_V2 } from '@modelcontextprotocol/ext-tasks/core/v2';
import type { Logger } from '../log.js';
import { ToolbeltError } from '../../shared/errors.js';
import { inBackground } from '../common/background.js';
import type { ToolProgress } from '../../shared/schemas/chat.js';
import type { TaskReference } from '../tools/runners.js';
import { RawRequests } from './raw-requests.js';

export type { SerializedTaskReference };
export type { TaskReference } from '../tools/runners.js';
export { TaskCancelledError, TaskFailedError } from '@modelcontextprotocol/ext-tasks/client';

/** How long a task may run before Toolbelt cancels it, unless the server's own call timeout is longer. */
export const TASK_LIFETIME_MS = 30 * 60_000;

/** How one task-backed call is followed. */
export interface TaskCallOptions {
  /** The person (or the chat) cancelling: the server is sent tasks/cancel. */
  signal: AbortSignal;
  /** Each request's own timeout (tools/call, tasks/get, tasks/result). */
  timeoutMs: number;
  /** The whole task's (TASK_LIFETIME_MS, or the call's timeout when longer): past it the task is cancelled and the call fails (TaskOutlived). */
  lifetimeMs?: number;
  meta?: Record<string, unknown>;
  /** The task's status messages, as progress. */
  onProgress?: (progress: ToolProgress) => void;
  /** The server made a task: where to find it again (kept with the call, for after a restart). */
  onTaskStarted?: (reference: TaskReference) => void;
}

/**
 * Whether a call of this tool must run as an MCP task: the tool says tasks
 * are required (a plain call would be refused) and the server offers tasks
 * for tools/call; such a tool on a server that does not offer them is refused
 * here, with a sentence. A tool where tasks are optional runs as a plain
 * call: the answer comes without polling, and its progress notifications
 * still count.
 *
 * This is the 2025-11-25 protocol's tasks (in its core), where a tool says
 * so in its listing. A 2026-07-28 tool runs as a task of the tasks extension
 * when its server refuses it otherwise (ModernTaskPath.taskOnly).
 */
export function mustRunAsTask(client: Client, tool: Tool | undefined): boolean {
  if (tool?.execution?.taskSupport !== 'required') return false;
  if (client.getProtocolEra() === 'legacy' && client.getServerCapabilities()?.tasks?.requests?.tools?.call !== undefined) return true;
  throw new ToolbeltError('mcp_error', `The tool ${tool.name} runs only as an MCP task, and its server does not offer Toolbelt the kind of tasks it runs (the 2025-11-25 protocol's tasks for tools/call).`);
}

/** A server that asked for more input round after round: stopped after this many. */
export const MAX_TASK_INPUT_ROUNDS = 10;

/** What a 2026 task asks of the person (a form); answered through the same door as the connection's elicitation. */
export type AskForInput = (params: Record<string, unknown>, signal: AbortSignal) => Promise<ApplicationElicitResult>;

/**
 * The 2026-07-28 tasks extension on one connection: its requests go on the
 * raw path (raw-requests.ts) framed as the SDK client frames its own, and a
 * task's questions (`inputRequests`) are asked through `ask`.
 */
export interface ModernTaskPath {
  raw: RawRequests;
  framing: V2RequestFraming;
  ask: AskForInput;
  /**
   * The tools this server said run only as tasks. A 2026 tool does not say so
   * in its listing (`execution` is gone from the revision): its server refuses
   * a call that does not declare the extension (needsTasksExtension), and the
   * call is made again as a task, as every later call of that tool is.
   */
  taskOnly: Set<string>;
}

/**
 * The tasks extension's path for a connection, or null: only a 2026-07-28
 * server that declares the extension makes such tasks. Made right after
 * connecting (RawRequests must see the transport before anything else wraps it).
 */
export function modernTaskPath(client: Client, transport: Transport, framing: Omit<V2RequestFraming, 'protocolVersion'>, ask: AskForInput, timeoutMs: number): ModernTaskPath | null {
  if (client.getProtocolEra() !== 'modern' || !offersTasksExtension(client)) return null;
  return { raw: new RawRequests(transport, timeoutMs), framing: { ...framing, protocolVersion: client.getNegotiatedProtocolVersion() ?? '2026-07-28' }, ask, taskOnly: new Set() };
}

/** JSON-RPC's MissingRequiredClientCapability (2026-07-28). */
const MISSING_CLIENT_CAPABILITY = -32021;

/**
 * A 2026 server's refusal of a plain call to a tool that runs only as a task:
 * -32021, naming the tasks extension among what it requires (that naming is a
 * SHOULD, so a refusal that names nothing counts too). Sent before the tool
 * runs, so calling again as a task runs it once.
 */
export function needsTasksExtension(error: unknown): boolean {
  if (!(error instanceof ProtocolError) || error.code !== MISSING_CLIENT_CAPABILITY) return false;
  const required = (error.data as { requiredCapabilities?: { extensions?: Record<string, unknown> } } | undefined)?.requiredCapabilities;
  return required === undefined || required.extensions?.[TASKS_EXTENSION_ID_V2] !== undefined;
}

/** A 2026 task's question, asked: forms go to the person; Toolbelt lends no model (sampling) and names no roots. */
function inputFor(ask: AskForInput) {
  return async (request: ApplicationInputRequest, context: { signal: AbortSignal }): Promise<ApplicationElicitResult> => {
    if (request.kind !== 'elicitation') throw new ToolbeltError('mcp_error', `Toolbelt does not answer a task's ${request.kind === 'sampling' ? 'sampling (it does not lend the person’s model)' : 'roots'} request.`);
    if (request.params.mode === 'url') throw new ToolbeltError('mcp_error', 'Toolbelt answers form questions only, not URL elicitation.');
    return ask(request.params, context.signal);
  };
}

function offersTasksExtension(client: Client): boolean {
  return client.getServerCapabilities()?.extensions?.[TASKS_EXTENSION_ID_V2] !== undefined;
}

/** A task that asked for input more than MAX_TASK_INPUT_ROUNDS times: Toolbelt stopped following it (and cancelled it). */
export class TaskAskedTooOften extends Error {
  constructor() {
    super(`the task asked for more input ${MAX_TASK_INPUT_ROUNDS} times, so Toolbelt cancelled it`);
  }
}

/** A task that ran past its lifetime: Toolbelt cancelled it. */
export class TaskOutlived extends Error {
  constructor(readonly lifetimeMs: number) {
    super(`the task ran longer than ${Math.round(lifetimeMs / 1000)} s, so Toolbelt cancelled it`);
  }
}

/** A task followed again after a restart that the server no longer has (a server over stdio restarted with the app). */
export class TaskLost extends Error {
  constructor(cause: unknown) {
    super(`the server no longer has the task this call started before Toolbelt restarted (${cause instanceof Error ? cause.message : String(cause)}); it may or may not have finished`, { cause });
  }
}

const OF_CLIENT = new WeakMap<Client, TaskCalls>();

/**
 * The task-backed calls of one connection, through the official tasks
 * package (`@modelcontextprotocol/ext-tasks`), which polls tasks/get and
 * fetches tasks/result. What is Toolbelt's: status messages become progress,
 * the person's cancel becomes tasks/cancel, a task has a lifetime, and a task
 * waiting for input is asked for it (below).
 */
export class TaskCalls {
  /** One per SDK client, made when its first task call comes (a connection renewed has a new client, and new calls). */
  static of(client: Client, server: string, tools: () => Tool[], log: Logger, modern: ModernTaskPath | null = null): TaskCalls {
    let calls = OF_CLIENT.get(client);
    if (!calls) OF_CLIENT.set(client, (calls = new TaskCalls(client, server, tools, log, modern)));
    return calls;
  }

  /** Set by leaveOn: a cancelled call stops following its task, and the server is not told (the app is closing). */
  static leaveOn(client: Client): void {
    const calls = OF_CLIENT.get(client);
    if (calls) calls.leaving = true;
  }

  private session: TaskEnabledSession | null = null;
  private leaving = false;

  constructor(
    private readonly client: Client,
    private readonly endpointId: string,
    private readonly tools: () => Tool[],
    private readonly log: Logger,
    private readonly modern: ModernTaskPath | null,
  ) {}

  private opened(): TaskEnabledSession {
    if (this.session) return this.session;
    const common = {
      endpointId: this.endpointId,
      tools: {
        currentTool: (name: string) => {
          const tool = this.tools().find((one) => one.name === name);
          return tool ? toolDeclarationFromMcpTool(tool) : undefined;
        },
      },
      onError: (error: Error) => this.log.warn('an MCP task reported a problem', { server: this.endpointId, error: error.message }),
    };
    const modern = this.modern;
    // A 2025 task's questions come as requests to the connection's elicitation handler; a 2026 task's in its status.
    this.session = modern
      ? createTaskSessionFromClient(this.client, { ...common, rawDispatch: modern.raw.dispatch, v2RequestFraming: modern.framing, onInputRequest: inputFor(modern.ask) as never, maxInputRounds: MAX_TASK_INPUT_ROUNDS })
      : createTaskSessionFromClient(this.client, common);
    return this.session;
  }

  async call(name: string, args: Record<string, unknown>, options: TaskCallOptions): Promise<CallToolResult> {
    const execution = await this.opened().callTool<CallToolResult>(name, args as never, {
      requestTimeoutMs: options.timeoutMs,
      ...(options.meta ? { metadata: options.meta as never } : {}),
      signal: options.signal,
    });
    if (execution.kind === 'task') options.onTaskStarted?.(execution.serializeReference());
    return this.follow(execution, options);
  }

  /** A task made before (the app restarted while it ran), followed to its end on this connection. */
  async resume(reference: TaskReference, options: TaskCallOptions): Promise<CallToolResult> {
    let execution: ToolExecution<CallToolResult>;
    try {
      // As kept in the chat's file (checked by its schema); ext-tasks brands the task id, and checks the reference itself.
      execution = await this.opened().resumeTask<CallToolResult>(reference as SerializedTaskReference, { requestTimeoutMs: options.timeoutMs, signal: options.signal });
    } catch (error) {
      // The server answered, and not with the task: it does not have it (any other failure is said as it is).
      if (error instanceof JsonRpcResponseError || error instanceof ProtocolError) throw new TaskLost(error);
      throw error;
    }
    return this.follow(execution, options);
  }

  /** Stops following every task without cancelling any: the server keeps them, for whoever has their references. */
  async detach(): Promise<void> {
    await Promise.all([...this.following].map((execution) => execution.detach()));
  }

  private readonly following = new Set<ToolExecution<CallToolResult>>();

  private async follow(execution: ToolExecution<CallToolResult>, options: TaskCallOptions): Promise<CallToolResult> {
    this.following.add(execution);
    const lifetimeMs = options.lifetimeMs ?? Math.max(options.timeoutMs, TASK_LIFETIME_MS);
    let ended: 'cancelled' | 'timeout' | null = null;
    // Awaited before the call ends: when it says "cancelled", the server has been told.
    const cancelling: { sent?: Promise<void> } = {};
    const stop = (why: 'cancelled' | 'timeout') => {
      ended ??= why;
      if (this.leaving && why === 'cancelled') {
        cancelling.sent ??= execution.detach().catch((error: unknown) => this.log.warn('an MCP task could not be left', { server: this.endpointId, error: String(error) }));
        return;
      }
      cancelling.sent ??= execution.cancel().catch((error: unknown) => this.log.warn('an MCP task could not be cancelled', { server: this.endpointId, error: String(error) }));
    };
    const onAbort = () => stop('cancelled');
    options.signal.addEventListener('abort', onAbort, { once: true });
    if (options.signal.aborted) onAbort();
    const lifetime = setTimeout(() => stop('timeout'), lifetimeMs);
    // A 2026 task carries its questions in its status, and ext-tasks answers them (tasks/update): no nudge.
    const asking = this.modern ? null : new InputNudge(this.client, this.log, this.endpointId, lifetimeMs);
    let step = 0;
    try {
      const { outcome } = await execution.settle({
        onEvent: (event: TaskExecutionEvent<CallToolResult>) => {
          if (event.type !== 'task') return;
          asking?.seen(event.task.taskId, event.task.status);
          const message = event.task.statusMessage?.slice(0, 500);
          options.onProgress?.({ progress: ++step, ...(message ? { message } : {}) });
        },
      });
      if (outcome.status === 'failed' && /maxInputRounds/.test(outcome.error.message)) {
        // ext-tasks stopped following; the server still holds the task, waiting for an answer that will not come.
        cancelling.sent ??= execution.cancel().catch((error: unknown) => this.log.warn('an MCP task could not be cancelled', { server: this.endpointId, error: String(error) }));
        throw new TaskAskedTooOften();
      }
      if (outcome.status === 'cancelled' || ended) {
        if (ended === 'timeout') throw new TaskOutlived(lifetimeMs);
        throw new TaskCancelledError();
      }
      return resultFromTaskOutcome(outcome);
    } finally {
      await cancelling.sent;
      this.following.delete(execution);
      clearTimeout(lifetime);
      options.signal.removeEventListener('abort', onAbort);
      asking?.end();
    }
  }

  async close(): Promise<void> {
    const session = this.session;
    this.session = null;
    await session?.close();
  }
}

/**
 * A 2025-11-25 task that waits for input has the server's question queued
 * until the client asks for the result: the spec says a client that sees
 * `input_required` should call tasks/result, whose response stream carries
 * the question (the everything server does exactly this). ext-tasks waits for
 * a final status before asking, so the two would wait for each other; this
 * asks once per time the task starts waiting. The question itself reaches
 * the connection's elicitation handler, as any other, and the answer goes
 * back on the same stream; what tasks/result returns is not used here.
 */
class InputNudge {
  private waiting = false;
  private readonly stopped = new AbortController();

  constructor(
    private readonly client: Client,
    private readonly log: Logger,
    private readonly server: string,
    private readonly timeoutMs: number,
  ) {}

  seen(taskId: string, status: string): void {
    const waiting = status === 'input_required';
    if (waiting && !this.waiting) {
      const asked = this.client.request({ method: 'tasks/result', params: { taskId } }, specTypeSchemas.GetTaskPayloadResult, { signal: this.stopped.signal, timeout: this.timeoutMs });
      inBackground(asked, (error) => {
        if (!this.stopped.signal.aborted) this.log.info('asking an MCP task for its question ended', { server: this.server, error: String(error) });
      });
    }
    this.waiting = waiting;
  }

  end(): void {
    this.stopped.abort();
  }
}

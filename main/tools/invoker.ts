import type { Ajv2020 } from 'ajv/dist/2020.js';
import { ToolbeltError, type ValidationIssue } from '../../shared/errors.js';
import type { RequestPreview } from '../../shared/schemas/chat.js';
import type { InvokeResult, RecipeResume, TraceEntry } from '../../shared/schemas/invocation.js';
import type { ToolFile } from '../../shared/schemas/tool.js';
import { compileSchemaOnce, createAjv, describeIssues, issuesFrom, type Validator } from '../common/validation.js';
import type { Clock } from '../common/clock.js';
import type { Logger } from '../log.js';
import type { ToolRecord } from '../store/records.js';
import type { ToolStore } from '../store/tool-store.js';
import { jsonValueProblem } from '../common/json-limits.js';
import type { Door, DoorCall } from '../consent/door.js';
import type { ToolHooks } from '../hooks/tool-hooks.js';
import { withHookRuns } from './hooked-result.js';
import { InvokeFailure } from './invoke-error.js';
import { requireReady, type ToolResolver } from './resolver.js';
import { runnerFor, type CallQuestion, type RunContext, type RunOutcome, type SourceInstructions, type ToolRunners } from './runners.js';
import type { Redactor } from '../common/redact.js';

export interface InvokeRequest {
  args: Record<string, unknown>;
  trace?: boolean;
  timeoutMs?: number;
  /** A recipe run again from one of its steps (the tester). */
  resume?: RecipeResume;
}

export interface InvokeHooks {
  before?: (info: { toolID: string; slug: string }) => void;
  after?: (info: { toolID: string; slug: string; ok: boolean; durationMs: number; attempts: number }) => void;
}

/** A call that ran, as what watches calls from outside (OpenTelemetry spans) reads it. */
export interface FinishedCall {
  tool: ToolFile;
  caller: DoorCall['caller'];
  /** The chat it belongs to, if any. */
  sessionId?: string;
  /** When it started, ms since the epoch, on the core's clock. */
  startedAt: number;
  result: InvokeResult;
}

export interface InvokerDeps {
  store: ToolStore;
  resolver: ToolResolver;
  /** Who runs a tool of each kind. */
  runners: ToolRunners;
  clock: Clock;
  log: Logger;
  /** The one door to the person: every call passes it between finding its tool and running it. */
  door: Door;
  hooks?: InvokeHooks;
  /** The person's hooks (Claude Code's PreToolUse, PostToolUse, PostToolUseFailure) around every call, whoever makes it. */
  toolHooks?: ToolHooks;
  /** Told of every call that ran (not drafts): must not throw or wait. */
  observe?: (call: FinishedCall) => void;
}

/**
 * Who calls and what the person already decided (see `DoorCall`: every
 * invocation says it, there is no default caller), and what the call's
 * runner reads, passed through as given: the invoker never names a kind's
 * own fields (a new kind adds them to `RunContext` and reads them in its runner).
 */
export interface InvokeContext extends DoorCall, Omit<RunContext, 'timeoutMs' | 'trace' | 'resume'> {}

export interface Invoker {
  invoke(record: ToolRecord, request: InvokeRequest, context: InvokeContext): Promise<InvokeResult>;
  /** Whether a call must have the person's yes first (the door's rule, asked ahead by a loop that suspends to wait for it). */
  approvalNeed: Door['need'];
  /** Problems with these arguments for this tool (argSchema), none when they are fine. */
  checkArgs(tool: ToolFile, args: Record<string, unknown>): ValidationIssue[];
  /** The question a call of this tool begins with (the ask-user built-in), or null: it waits for the answer before it runs. */
  questionOf(tool: ToolFile, args: Record<string, unknown>): CallQuestion | null;
  /** The request an HTTP tool would send for these arguments, secrets masked; null for local tools. */
  preview(tool: ToolFile, args: Record<string, unknown>): Promise<RequestPreview | null>;
  /** What the sources of these tools tell a model about them, once per source, in the order first met. */
  instructionsOf(tools: Iterable<ToolFile>): SourceInstructions[];
  /** Runs a draft that is not in the store: no enabled check, no usage metrics. */
  tryDraft(record: ToolRecord, request: InvokeRequest, context: InvokeContext): Promise<InvokeResult>;
}

/**
 * The invocation pipeline: validate args → can it run (the resolver) → the
 * door (the person's yes, asked or brought) → the runner of its kind (local function, HTTP request, …) → mask secrets →
 * validate output → `{ ok, value | error }` → usage metrics, after the answer.
 */
export function createInvoker(deps: InvokerDeps): Invoker {
  const argsAjv = createAjv({ strict: false, useDefaults: true, peoplesSchemas: true });
  const outputAjv = createAjv({ strict: false, peoplesSchemas: true });
  const now = () => deps.clock.now().getTime();

  /**
   * A validator for a schema, compiled once. A schema ajv cannot compile (a server's remote `$ref`, thousands of
   * levels) is the tool's problem, said with `what` and a sentence, never an internal error.
   */
  function compiled(ajv: Ajv2020, schema: object, tool: ToolFile, what: 'argSchema' | 'outputSchema'): Validator {
    try {
      return compileSchemaOnce(ajv, schema);
    } catch (error) {
      const reason = (error instanceof Error ? error.message : String(error)).slice(0, 300);
      throw new ToolbeltError('tool_unavailable', `${tool.displayName} cannot be used: its ${what === 'argSchema' ? 'input' : 'output'} schema cannot be checked (${reason}). Fix the tool's schema, or ask the server's author to.`);
    }
  }

  /** Whether a schema fills in defaults (so checking it changes the value), remembered per schema. */
  const fillsDefaults = new WeakMap<object, boolean>();
  function prepareArgs(tool: ToolFile, args: Record<string, unknown>): Record<string, unknown> {
    let fills = fillsDefaults.get(tool.argSchema);
    if (fills === undefined) fillsDefaults.set(tool.argSchema, (fills = JSON.stringify(tool.argSchema).includes('"default"')));
    // The caller's object is never changed: a copy takes the defaults. Without defaults there is nothing to change.
    const copy = fills ? structuredClone(args) : args;
    const validate = compiled(argsAjv, tool.argSchema, tool, 'argSchema');
    if (!validate(copy)) {
      const issues = issuesFrom(validate.errors);
      throw new ToolbeltError('invalid_args', `Invalid arguments for ${tool.displayName}: ${describeIssues(issues)}`, { issues });
    }
    return copy;
  }

  function validateOutput(tool: ToolFile, value: unknown): ValidationIssue[] {
    if (tool.outputSchema === undefined || tool.outputSchema === true) return [];
    if (tool.outputSchema === false) return [{ path: '/', message: 'outputSchema is false: no value is valid' }];
    const validate = compiled(outputAjv, tool.outputSchema, tool, 'outputSchema');
    return validate(value) ? [] : issuesFrom(validate.errors);
  }

  /**
   * One call, whoever makes it. Kept small, with the rarer paths in functions of their own: V8 optimizes a small
   * function sooner and compiles it faster (whole, this one took ~70 ms to optimize, and ran unoptimized meanwhile).
   */
  async function invoke(record: ToolRecord, request: InvokeRequest, context: InvokeContext, draft = false): Promise<InvokeResult> {
    // An invalid file is refused before its arguments are looked at (requireReady throws for it).
    const tool = record.kind === 'valid' ? record.tool : requireReady(deps.resolver.check(record)).record.tool;
    let args = prepareArgs(tool, request.args);
    // A draft in the tester runs whatever the switches say; everything else asks the resolver.
    requireReady(deps.resolver.check(record, { ignoreSwitches: draft }));
    // The person's hooks before the call: they may refuse it, rewrite its input, let it through or have the person asked.
    const hookCall = { caller: context.caller, signal: context.signal, ...(context.sessionId ? { sessionId: context.sessionId } : {}) };
    const hooksBefore = deps.toolHooks?.before(tool, args, hookCall);
    const before = hooksBefore ? await hooksBefore : null;
    if (before) {
      const admitted = admittedByHooks(tool, args, before);
      if ('refused' in admitted) return admitted.refused;
      args = admitted.args;
    }
    // The time the person takes to answer is not the tool's: a call's duration starts once it is let through.
    const doorCall = before ? { ...context, approved: context.approved === true || (before.allow && !before.ask), ...(before.ask ? { hookAsks: before.ask } : {}) } : context;
    const passing = deps.door.pass(tool, args, doorCall, context.signal);
    const door = passing instanceof Promise ? await passing : passing;
    if (!door.open) return refusedResult(door.code, door.message, before);

    deps.hooks?.before?.({ toolID: tool.toolID, slug: tool.slug });
    const started = now();
    const runner = runnerFor(deps.runners, tool);
    const outcome = await runner.run(tool, args, runContextOf(context, request));
    let result = resultOf(tool, request, outcome, started);
    const hooksAfter = deps.toolHooks?.after(tool, args, hookCall, result);
    if (hooksAfter || before || outcome.hooks?.length) result = withHookRuns(result, before, hooksAfter ? await hooksAfter : null, outcome.hooks);
    if (!draft) finished(tool, context, started, result);
    deps.hooks?.after?.({ toolID: tool.toolID, slug: tool.slug, ok: result.ok, durationMs: result.durationMs, attempts: result.attempts });
    logCall(deps.log, runner.logLevel(tool), tool, result, outcome.trace);
    return result;
  }

  /** What the hooks before a call leave of it: refused, or its arguments (rewritten by a hook, checked again). */
  function admittedByHooks(tool: ToolFile, args: Record<string, unknown>, before: HooksBefore): { refused: InvokeResult } | { args: Record<string, unknown> } {
    if (before.refusal) return { refused: refusedResult(before.refusal.code, before.refusal.message, before) };
    if (!before.updatedInput) return { args };
    try {
      return { args: prepareArgs(tool, before.updatedInput) };
    } catch (error) {
      if (!(error instanceof ToolbeltError)) throw error;
      const message = `A hook rewrote the input of ${tool.displayName} into something its schema refuses (${error.message}), so the call did not run.`;
      return { refused: refusedResult('hook_invalid_input', message, before) };
    }
  }

  /** The result of what the runner produced: its value masked and checked against the tool's outputSchema, or its failure. */
  function resultOf(tool: ToolFile, request: InvokeRequest, outcome: RunOutcome, started: number): InvokeResult {
    const { redactor, attempts } = outcome;
    let failure = outcome.failure;
    let value: unknown;
    let outputMismatch: OutputMismatch | undefined;
    // A value nested past what the core carries (a script can build one 5,000 deep) is refused before anything walks it.
    const tooDeep = failure ? null : jsonValueProblem(outcome.value, { text: false });
    if (tooDeep) failure = new InvokeFailure('output_invalid', `${tool.displayName} returned a value that ${tooDeep.message} (at ${tooDeep.path}); Toolbelt does not take values that deep.`);
    if (!failure) {
      value = redactor.value(outcome.value);
      const checked = outcome.emptyByDesign ? null : outputCheck(tool, request, outcome, value);
      if (checked && 'failure' in checked) failure = checked.failure;
      else if (checked) outputMismatch = checked.mismatch;
    }
    const durationMs = now() - started;
    let result: InvokeResult;
    if (failure) result = failedResult(failure, redactor, durationMs, attempts);
    // Most answers are a value alone: that result is made without spreading empty objects (~1 µs a call, npm run bench).
    else if (!outcome.content && !outcome.meta && !outputMismatch) result = { ok: true, value, durationMs, attempts };
    else {
      const content = outcome.content ? { content: redactor.value(outcome.content) as unknown[] } : {};
      result = { ok: true, value, ...content, ...outcome.meta, ...(outputMismatch ? { outputMismatch } : {}), durationMs, attempts };
    }
    if (outcome.trace || outcome.steps || outcome.logs || outcome.memoryBytes || outcome.recipe || outcome.rpc) addDetails(result, request, outcome);
    return result;
  }

  /** An answer its outputSchema refuses: a warning beside the value where its bundle says so, else the call's failure. */
  function outputCheck(tool: ToolFile, request: InvokeRequest, outcome: RunOutcome, value: unknown): { mismatch: OutputMismatch } | { failure: InvokeFailure } | null {
    const issues = validateOutput(tool, value);
    if (issues.length === 0) return null;
    const message = `${tool.displayName} returned a value that does not match its outputSchema: ${describeIssues(issues)}`;
    if (outcome.mismatchIsWarning) return { mismatch: { message, issues: issues.slice(0, 200) } };
    // What it answered goes with what does not match (masked, bounded): the model and the person see the answer, not only the paths;
    // the tester (which asks for a trace) gets the whole of it.
    const answered = { issues: issues.slice(0, 200), snippet: boundedJson(value), ...(outcome.meta?.status !== undefined ? { status: outcome.meta.status } : {}), ...(request.trace ? { answer: value } : {}) };
    return { failure: new InvokeFailure('output_invalid', message, answered) };
  }

  /** After a call that ran (not a draft): its usage figures, and what watches calls from outside. */
  function finished(tool: ToolFile, context: InvokeContext, started: number, result: InvokeResult): void {
    deps.store.usage.record(tool.toolID, new Date(started + result.durationMs), { ok: result.ok, durationMs: result.durationMs });
    deps.observe?.({ tool, caller: context.caller, ...(context.sessionId ? { sessionId: context.sessionId } : {}), startedAt: started, result });
  }

  return {
    invoke: (record, request, context) => invoke(record, request, context),
    approvalNeed: (caller, tool, selection) => deps.door.need(caller, tool, selection),
    tryDraft: (record, request, context) => invoke(record, request, context, true),
    checkArgs(tool, args) {
      const validate = compiled(argsAjv, tool.argSchema, tool, 'argSchema');
      return validate(structuredClone(args)) ? [] : issuesFrom(validate.errors);
    },
    preview: (tool, args) => runnerFor(deps.runners, tool).preview(tool, args),
    questionOf: (tool, args) => runnerFor(deps.runners, tool).question?.(tool, args) ?? null,
    instructionsOf(tools) {
      const said = new Map<string, SourceInstructions>();
      for (const tool of tools) {
        const instructions = runnerFor(deps.runners, tool).instructions?.(tool);
        if (instructions && !said.has(instructions.from)) said.set(instructions.from, instructions);
      }
      return [...said.values()];
    },
  };
}

/** The door's fields: the invoker's, never a runner's (a record, so a new field of DoorCall must be named here). */
const DOOR_FIELDS: ReadonlySet<string> = new Set(Object.keys({ caller: true, selection: true, approved: true, hookAsks: true, whileAsking: true } satisfies Record<keyof DoorCall, true>));

/**
 * Everything of the call's context but the door's, with the request's own fields. Copied key by key: a rest pattern
 * with excluded keys and a spread took V8's slow path, ~7 µs of every call (a fifth of the MCP hop's overhead).
 */
function runContextOf(context: InvokeContext, request: InvokeRequest): RunContext {
  const passed: Record<string, unknown> = {};
  // for…in, not Object.keys: no array made per call (a context is a plain object literal, nothing inherited to skip).
  for (const key in context) if (!DOOR_FIELDS.has(key)) passed[key] = context[key as keyof InvokeContext];
  passed.timeoutMs = request.timeoutMs;
  passed.trace = request.trace ?? false;
  if (request.resume) passed.resume = request.resume;
  return passed as unknown as RunContext;
}

type HooksBefore = NonNullable<Awaited<ReturnType<ToolHooks['before']>>>;
type OutputMismatch = { message: string; issues: ValidationIssue[] };

/** A call that did not run (a hook or the door refused it), with the hooks that ran before. */
function refusedResult(code: string, message: string, before: HooksBefore | null): InvokeResult {
  return withHookRuns({ ok: false, error: { code, message }, durationMs: 0, attempts: 0 }, before, null);
}

/** A call that failed, its message and snippet masked. */
function failedResult(failure: InvokeFailure, redactor: Redactor, durationMs: number, attempts: number): InvokeResult {
  const { status, snippet, host, issues, answer } = failure.extra;
  return {
    ok: false,
    error: {
      code: failure.code,
      message: redactor.text(failure.message),
      ...(status !== undefined ? { status } : {}),
      ...(snippet !== undefined ? { snippet: redactor.text(snippet) } : {}),
      ...(host !== undefined ? { host } : {}),
      ...(issues ? { issues } : {}),
      ...(answer !== undefined ? { answer } : {}),
    },
    durationMs,
    attempts,
  };
}

/** What some kinds add to a result: a trace and what a recipe or MCP server exchanged (when asked for), an agent's steps, a script's console and memory. */
function addDetails(result: InvokeResult, request: InvokeRequest, outcome: RunOutcome): void {
  const { redactor } = outcome;
  if (request.trace && outcome.trace) result.trace = outcome.trace;
  // An agent's steps are part of its answer: shown in the card whether or not a trace was asked for.
  if (outcome.steps?.length) result.steps = outcome.steps.map((step) => redactor.value(step));
  if (outcome.logs?.length) result.logs = outcome.logs.map((line) => ({ ...line, text: redactor.text(line.text) }));
  if (outcome.memoryBytes) result.memoryBytes = outcome.memoryBytes;
  if (request.trace && outcome.recipe) result.recipe = redactor.value(outcome.recipe);
  if (request.trace && outcome.rpc) result.rpc = outcome.rpc.map((message) => ({ ...message, text: redactor.text(message.text) }));
}

function logCall(log: Logger, level: 'debug' | 'info' | 'quiet', tool: ToolFile, result: InvokeResult, trace: TraceEntry[] | undefined): void {
  if (level === 'quiet') return;
  const fields = {
    tool: tool.slug,
    version: tool.version,
    ok: result.ok,
    durationMs: Math.round(result.durationMs),
    attempts: result.attempts,
    ...(result.ok ? {} : { code: result.error.code }),
  };
  // Trace entries are already masked; they are only logged when the tool asks.
  if (level === 'debug') log.info('tool call', { ...fields, trace });
  else log.info('tool call', fields);
}

/** A value as the start of its JSON: an error carries this much of an answer. */
const OUTPUT_SNIPPET_CHARS = 2_000;

function boundedJson(value: unknown): string {
  const text = JSON.stringify(value, null, 2) ?? 'undefined';
  return text.length > OUTPUT_SNIPPET_CHARS ? `${text.slice(0, OUTPUT_SNIPPET_CHARS)}…` : text;
}

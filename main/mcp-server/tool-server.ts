import { inputRequired, inputResponse, ProtocolError, ProtocolErrorCode, Server, type CallToolResult, type InputRequiredResult, type ServerContext } from '@modelcontextprotocol/server';
import { newUuidV7 } from '../common/uuid-v7.js';
import { asMcpToolResult, valueText } from '../../shared/mcp/mcp-tool-result.js';
import { ToolbeltError } from '../../shared/errors.js';
import type { InvokeResult } from '../../shared/schemas/invocation.js';
import type { McpActivity } from '../../shared/schemas/mcp-share.js';
import type { HookRun } from '../../shared/schemas/hooks.js';
import type { ToolDiscovery } from '../../shared/schemas/chat.js';
import { inBackground } from '../common/background.js';
import type { Clock } from '../common/clock.js';
import { jsonValueProblem } from '../common/json-limits.js';
import type { DoorVerdict } from '../consent/door.js';
import type { Logger } from '../log.js';
import type { Invoker } from '../tools/invoker.js';
import { TOOL_SEARCH_NAME } from '../tools/exposure.js';
import { readLineage, type Lineage } from '../tools/run-lineage.js';
import type { SearchCatalogue } from '../tools/search/search-catalogue.js';
import type { ActivityLog } from './activity.js';
import { CallInProgress, NotAnswered, type Question, type WaitingCalls } from './call-rounds.js';
import { SessionSearch, sharedDiscovery, toolsPage } from './shared-search.js';
import type { SharedTool } from './shared-tools.js';
import { failed, relayToolProgress, tellWhileWaiting, type Round } from './call-notices.js';
import type { CallState } from './request-state.js';

const SHOWN_CHARS = 4_096;

/** How long a 2026-07-28 client may keep the tool list and this server's description (it hears of changes sooner through `subscriptions/listen`). */
const LIST_TTL_MS = 60_000;
const DISCOVER_TTL_MS = 5 * 60_000;

export interface ToolServerDeps {
  app: { name: string; version: string };
  /** Which revision the instance serves: `modern` (2026-07-28, each request on its own) or `legacy` (a 2025 session or connection). */
  era: 'legacy' | 'modern';
  sharedTools(): Promise<SharedTool[]>;
  invoker: Invoker;
  /** Whether a Toolbelt window is there to approve a call. */
  windowOpen(): boolean;
  activity: ActivityLog;
  clock: Clock;
  log: Logger;
  /** How often a call waiting for the person's approval tells a client that asked for progress that it still waits. */
  waitingNoticeMs: number;
  /** Whether clients get every shared tool listed, or tool_search and what they found (the share's setting). */
  discovery(): Promise<ToolDiscovery>;
  catalogue: SearchCatalogue;
  /** Calls that asked the person through their client and wait for the answer, shared by every instance of this server. */
  waiting: WaitingCalls<Answered, WaitingRound>;
  /** Seals and checks the state a client carries between the rounds of a call that asks. */
  callState: CallState;
}

const cut = (text: string) => (text.length > SHOWN_CHARS ? `${text.slice(0, SHOWN_CHARS)}…` : text);

type Outcome = { ok: boolean; result: string; errorCode?: string; approval: McpActivity['approval']; hooks?: HookRun[] };
export type Answered = { outcome: Outcome; answer: CallToolResult };
/** What a call's next round needs: where its notices go, and the tool's output schema its result is shaped by. */
export type WaitingRound = { round: Round; outputSchema: unknown };

/** A call that did not run, or failed: the activity records why, the client reads the same sentence. */
function refusal(result: string, errorCode: string, approval: McpActivity['approval']): Answered {
  return { outcome: { ok: false, result, errorCode, approval }, answer: failed(result) };
}

/** The question as the form a client shows: one answer, free or among the choices. */
function questionForm(question: Question) {
  const answer = question.choices?.length ? { type: 'string' as const, title: 'Answer', enum: question.choices } : { type: 'string' as const, title: 'Answer' };
  return inputRequired.elicit({ mode: 'form', message: question.question, requestedSchema: { type: 'object', properties: { answer }, required: ['answer'] } });
}

/**
 * Toolbelt's MCP server, one instance per 2025 session or connection, or per
 * 2026-07-28 request: lists the shared tools and runs them through the same
 * resolver and invoker as the app (whose door asks the person first for tools
 * that ask), recording every call for the activity view. A tool that asks the
 * person mid-call asks through the client: `input_required` on 2026-07-28, an
 * elicitation on 2025 (the SDK's shim turns one into the other).
 */
export function createToolServer(deps: ToolServerDeps): Server {
  const server = new Server(
    { name: 'toolbelt', title: deps.app.name, version: deps.app.version },
    {
      capabilities: { tools: { listChanged: true }, logging: {} },
      instructions: 'Tools the person built and tested in Toolbelt. Some ask the person before they run; a declined call says so.',
      cacheHints: { 'tools/list': { ttlMs: LIST_TTL_MS, cacheScope: 'private' }, 'server/discover': { ttlMs: DISCOVER_TTL_MS, cacheScope: 'private' } },
      requestState: { verify: (state, ctx) => deps.callState.verify(state, ctx) },
    },
  );
  // On 2026-07-28 the client names itself on every request; the SDK gives that here too.
  const clientName = () => {
    const info = server.getClientVersion();
    return (info?.title ?? info?.name ?? 'An MCP client').slice(0, 200);
  };

  /** The call itself, as the activity view records it, with the result the client gets; the invoker's door asks the person first when the tool asks. */
  async function run(shared: SharedTool, args: Record<string, unknown>, round: Round, lineage: Lineage | null, ask: ((question: Question) => Promise<string>) | null, signal: AbortSignal): Promise<Answered> {
    const { tool } = shared.record;
    let approval: McpActivity['approval'] = 'not-needed';
    // A client that asked for progress hears that the call still waits, so it does not give up while the person reads.
    const whileAsking = () => {
      const stopTelling = deps.windowOpen() ? tellWhileWaiting(round, `Waiting for the person to approve ${tool.displayName} in Toolbelt.`, deps.waitingNoticeMs, deps.log) : () => {};
      return (verdict: DoorVerdict) => {
        stopTelling();
        approval = verdict.open ? 'approved' : verdict.code === 'approval_unavailable' ? 'no-window' : 'declined';
      };
    };
    let result: InvokeResult;
    try {
      // A call from an agent in a Toolbelt (this one, through its own MCP client) goes on counting its depth and budget.
      const nested = lineage ? { agentPath: Array.from({ length: lineage.depth }, () => 'an agent over MCP'), budget: lineage.budget } : {};
      const caller = { kind: 'mcp-client' as const, client: clientName() };
      const askUser = ask ? { askUser: (question: string, choices?: string[]) => ask({ question, ...(choices ? { choices } : {}) }) } : {};
      const onProgress = relayToolProgress(round, deps.log);
      result = await deps.invoker.invoke(shared.record, { args }, { caller, whileAsking, signal, ...nested, ...askUser, ...(onProgress ? { onProgress } : {}) });
    } catch (error) {
      // Bad arguments and a tool that stopped being runnable are the caller's to fix: said as a failed call.
      if (!(error instanceof ToolbeltError)) throw error;
      return refusal(error.message, error.code, approval);
    }
    const hooks = result.hooks?.length ? { hooks: result.hooks.slice(0, 20) } : {};
    const outcome: Outcome = result.ok ? { ok: true, result: valueText(result.value), approval, ...hooks } : { ok: false, result: result.error.message, errorCode: result.error.code, approval, ...hooks };
    return { outcome, answer: asMcpToolResult(result, shared.definition.outputSchema !== undefined) as CallToolResult };
  }

  /**
   * Takes a call to its next step within this request: its answer, or the question it asks, handed to the client
   * with the sealed state that brings it back to this call. The request ending (the client cancelled) ends the call.
   */
  async function proceed(call: CallInProgress<Answered>, round: Round, ctx: ServerContext, outputSchema: unknown): Promise<CallToolResult | InputRequiredResult> {
    round.ctx = ctx;
    const cancelled = () => call.abort('The client cancelled the call.');
    ctx.mcpReq.signal.addEventListener('abort', cancelled, { once: true });
    try {
      const step = await call.next();
      if (step.kind === 'done') return server.projectCallToolResult(step.answer.answer, outputSchema as Record<string, unknown> | undefined);
      if (!deps.waiting.keep(call, { round, outputSchema })) return failed('Toolbelt has too many calls waiting for answers. Answer or cancel one, then call again.');
      return inputRequired({ inputRequests: { answer: questionForm(step.question) }, requestState: await deps.callState.mint(call.id, ctx) });
    } finally {
      ctx.mcpReq.signal.removeEventListener('abort', cancelled);
    }
  }

  /** A retried call with the person's answer: the waiting call takes it and goes on. */
  async function resume(callID: string, ctx: ServerContext): Promise<CallToolResult | InputRequiredResult> {
    const waiting = deps.waiting.take(callID);
    if (!waiting) return failed('The call this answer is for has ended: it waited too long for the answer, or Toolbelt restarted. Call the tool again.');
    const view = inputResponse(ctx.mcpReq.inputResponses, 'answer');
    const given = view.kind === 'elicit' && view.action === 'accept' ? view.content?.answer : undefined;
    waiting.call.answered(given === undefined ? new NotAnswered() : typeof given === 'string' ? given : JSON.stringify(given));
    return proceed(waiting.call, waiting.context.round, ctx, waiting.context.outputSchema);
  }

  // This session's tool search: what it found is listed after tool_search from then on. A 2026-07-28 client has no
  // session: it lists tool_search alone and is told how to call what it found.
  const session = new SessionSearch(deps.catalogue, { remembers: deps.era === 'legacy' });
  const offered = async () => {
    const shared = await deps.sharedTools();
    return { shared, mode: sharedDiscovery(await deps.discovery(), shared).mode };
  };
  const record = (entry: Omit<McpActivity, 'id' | 'at' | 'client'>) => deps.activity.add({ id: newUuidV7(), at: deps.clock.now().toISOString(), client: clientName(), ...entry });

  // Paged: a client reads a hundred tools at a time, never one page of thousands.
  server.setRequestHandler('tools/list', async (request) => {
    const { shared, mode } = await offered();
    return toolsPage(session.listed(shared, mode), request.params?.cursor);
  });

  server.setRequestHandler('tools/call', async (request, ctx) => {
    const state = ctx.mcpReq.requestState<string>();
    if (typeof state === 'string') return resume(state, ctx);
    const started = performance.now();
    const { name } = request.params;
    const args = request.params.arguments ?? {};
    // Whether tool_search is offered is only asked when it is the name called: the answer weighs every shared tool.
    const { shared: everything, mode } = name === TOOL_SEARCH_NAME ? await offered() : { shared: await deps.sharedTools(), mode: null };
    if (name === TOOL_SEARCH_NAME && mode === 'search') {
      const outcome = session.search(args, everything);
      if (outcome.found && deps.era === 'legacy') inBackground(server.sendToolListChanged(), (error) => deps.log.debug('an MCP client could not be told its tool list grew', { error: String(error) }));
      record({ tool: name, displayName: 'Search tools', args: cut(valueText(args)), ok: !outcome.isError, result: cut(outcome.text), durationMs: Math.round(performance.now() - started), approval: 'not-needed' });
      return { isError: outcome.isError, content: [{ type: 'text', text: outcome.text }] };
    }
    // Any shared tool can be called by name, listed in this session or not (a client may call what a search named).
    const shared = everything.find((candidate) => candidate.name === name);
    if (!shared) {
      // The name is the client's: said back cut, so a 100 kB name does not come back whole.
      const said = [...name].length > 80 ? `${[...name].slice(0, 80).join('')}…` : name;
      throw new ProtocolError(ProtocolErrorCode.InvalidParams, `There is no shared tool named "${said}": it is not shared, is switched off, or was deleted. List the tools again.`);
    }
    // The guard every call through the operation table passes (nesting, lone surrogates), before anything walks the arguments.
    const unsafe = jsonValueProblem(args, { text: true });
    const round: Round = { ctx };
    const callOnce = async (ask: ((question: Question) => Promise<string>) | null, signal: AbortSignal): Promise<Answered> => {
      const { outcome, answer } = unsafe
        ? refusal(`Invalid arguments for ${shared.record.tool.displayName}: ${unsafe.path} ${unsafe.message}.`, 'invalid_args', 'not-needed')
        : await run(shared, args, round, readLineage(ctx.mcpReq._meta), ask, signal);
      record({
        tool: name.slice(0, 200),
        displayName: shared.record.tool.displayName,
        bundleID: shared.record.bundleID,
        args: unsafe ? '(not shown: they could not be carried)' : cut(valueText(args)),
        ok: outcome.ok,
        result: cut(outcome.result),
        ...(outcome.errorCode ? { errorCode: outcome.errorCode } : {}),
        durationMs: Math.round(performance.now() - started),
        approval: outcome.approval,
        ...(outcome.hooks ? { hooks: outcome.hooks } : {}),
      });
      return { outcome, answer };
    };
    const outputSchema = shared.definition.outputSchema;
    // A client that cannot be asked has no rounds to hold the call across: it runs straight through, ended by the
    // client's own cancellation. Holding it as a call in progress anyway cost each of its calls ~1 % (npm run bench -- mcp-server).
    if (server.getClientCapabilities()?.elicitation === undefined) {
      return server.projectCallToolResult((await callOnce(null, ctx.mcpReq.signal)).answer, outputSchema);
    }
    return proceed(new CallInProgress<Answered>(callOnce), round, ctx, outputSchema);
  });
  return server;
}

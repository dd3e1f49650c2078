import { asMcpToolResult, valueText } from '../../shared/mcp/mcp-tool-result.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import { CallToolRequestSchema, ErrorCode, ListToolsRequestSchema, McpError, SetLevelRequestSchema, type CallToolResult, type ServerNotification, type ServerRequest } from '@modelcontextprotocol/sdk/types.js';
import { v7 as uuidv7 } from 'uuid';
import { ToolbeltError } from '../../shared/errors.js';
import type { InvokeResult } from '../../shared/schemas/invocation.js';
import type { McpActivity } from '../../shared/schemas/mcp-share.js';
import { inBackground } from '../common/background.js';
import type { Clock } from '../common/clock.js';
import { jsonValueProblem } from '../common/json-limits.js';
import { readLineage, type Lineage } from '../tools/run-lineage.js';
import type { Logger } from '../log.js';
import type { DoorVerdict } from '../consent/door.js';
import type { Invoker } from '../tools/invoker.js';
import type { ActivityLog } from './activity.js';
import type { SharedTool } from './shared-tools.js';
import { SessionSearch, sharedDiscovery, toolsPage } from './shared-search.js';
import type { ToolDiscovery } from '../../shared/schemas/chat.js';
import { TOOL_SEARCH_NAME } from '../tools/exposure.js';
import type { SearchCatalogue } from '../tools/search/search-catalogue.js';

const SHOWN_CHARS = 4_096;

export interface ToolServerDeps {
  app: { name: string; version: string };
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
}

const cut = (text: string) => (text.length > SHOWN_CHARS ? `${text.slice(0, SHOWN_CHARS)}…` : text);

function failed(message: string): CallToolResult {
  return { isError: true, content: [{ type: 'text', text: message }] };
}

/** A tool's outcome as MCP content: the value as text, and as structured content when the tool declares an object output. */
function callResult(shared: SharedTool, result: InvokeResult): CallToolResult {
  return asMcpToolResult(result, shared.definition.outputSchema !== undefined) as CallToolResult;
}

/** What the SDK tells a handler about the call it answers. */
type CallContext = Pick<RequestHandlerExtra<ServerRequest, ServerNotification>, 'signal' | 'requestId' | '_meta' | 'sendNotification'>;

/**
 * While the person decides, a progress notice now and then, for a client
 * that asked for progress: clients give up on a call after a while (a minute
 * by default in the SDK's) unless progress comes, and a person may take
 * longer than that to read the dialog. Returns what stops the notices.
 */
function tellWhileWaiting(call: CallContext, message: string, everyMs: number, log: Logger): () => void {
  const progressToken = call._meta?.progressToken;
  if (progressToken === undefined) return () => {};
  let progress = 0;
  const tell = () => {
    progress++;
    const notice = call.sendNotification({ method: 'notifications/progress', params: { progressToken, progress, message } });
    inBackground(notice, (error) => log.warn('a progress notice to an MCP client failed', { error: String(error) }));
  };
  tell();
  const timer = setInterval(tell, everyMs);
  timer.unref();
  return () => clearInterval(timer);
}

type Outcome = { ok: boolean; result: string; errorCode?: string; approval: McpActivity['approval'] };
type Answered = { outcome: Outcome; answer: CallToolResult };

/** A call that did not run, or failed: the activity records why, the client reads the same sentence. */
function refusal(result: string, errorCode: string, approval: McpActivity['approval']): Answered {
  return { outcome: { ok: false, result, errorCode, approval }, answer: failed(result) };
}

/**
 * The ask-user built-in's question as a form the client shows (MCP
 * elicitation), sent on the call's own response stream: a client that keeps
 * no stream open for the server's own messages still gets it.
 */
function askThroughClient(server: Server, call: CallContext) {
  return async (question: string, choices?: string[]) => {
    const answer = await server.elicitInput(
      {
        mode: 'form',
        message: question,
        requestedSchema: {
          type: 'object',
          properties: { answer: choices?.length ? { type: 'string', title: 'Answer', enum: choices } : { type: 'string', title: 'Answer' } },
          required: ['answer'],
        },
      },
      { signal: call.signal, relatedRequestId: call.requestId },
    );
    if (answer.action !== 'accept') throw new Error('The person did not answer.');
    return String(answer.content?.answer ?? '');
  };
}

/**
 * One MCP session's server: lists the shared tools and runs them through the
 * same resolver and invoker as the app, asking the person first for tools
 * that ask, and recording every call for the activity view.
 */
export function createToolServer(deps: ToolServerDeps): Server {
  const server = new Server(
    { name: 'toolbelt', title: deps.app.name, version: deps.app.version },
    {
      capabilities: { tools: { listChanged: true }, logging: {} },
      instructions: 'Tools the person built and tested in Toolbelt. Some ask the person before they run; a declined call says so.',
    },
  );
  const clientName = () => {
    const info = server.getClientVersion();
    return (info?.title ?? info?.name ?? 'An MCP client').slice(0, 200);
  };

  /** The call itself, as the activity view records it, with the result the client gets; the invoker's door asks the person first when the tool asks. */
  async function run(shared: SharedTool, args: Record<string, unknown>, call: CallContext, lineage: Lineage | null): Promise<Answered> {
    const { tool } = shared.record;
    let approval: McpActivity['approval'] = 'not-needed';
    // A client that asked for progress hears that the call still waits, so it does not give up while the person reads.
    const whileAsking = () => {
      const stopTelling = deps.windowOpen() ? tellWhileWaiting(call, `Waiting for the person to approve ${tool.displayName} in Toolbelt.`, deps.waitingNoticeMs, deps.log) : () => {};
      return (verdict: DoorVerdict) => {
        stopTelling();
        approval = verdict.open ? 'approved' : verdict.code === 'approval_unavailable' ? 'no-window' : 'declined';
      };
    };
    const canAsk = server.getClientCapabilities()?.elicitation !== undefined;
    let result: InvokeResult;
    try {
      // A call from an agent in a Toolbelt (this one, through its own MCP client) goes on counting its depth and budget.
      const nested = lineage ? { agentPath: Array.from({ length: lineage.depth }, () => 'an agent over MCP'), budget: lineage.budget } : {};
      const caller = { kind: 'mcp-client' as const, client: clientName() };
      result = await deps.invoker.invoke(shared.record, { args }, { caller, whileAsking, signal: call.signal, ...nested, ...(canAsk ? { askUser: askThroughClient(server, call) } : {}) });
    } catch (error) {
      // Bad arguments and a tool that stopped being runnable are the caller's to fix: said as a failed call.
      if (!(error instanceof ToolbeltError)) throw error;
      return refusal(error.message, error.code, approval);
    }
    const outcome: Outcome = result.ok ? { ok: true, result: valueText(result.value), approval } : { ok: false, result: result.error.message, errorCode: result.error.code, approval };
    return { outcome, answer: callResult(shared, result) };
  }

  // Clients set a log level before anything else; Toolbelt sends no log messages of its own, so any level is fine.
  server.setRequestHandler(SetLevelRequestSchema, () => ({}));

  // This session's tool search: what it found is listed after tool_search from then on.
  const session = new SessionSearch(deps.catalogue);
  const offered = async () => {
    const shared = await deps.sharedTools();
    return { shared, mode: sharedDiscovery(await deps.discovery(), shared).mode };
  };
  const record = (entry: Omit<McpActivity, 'id' | 'at' | 'client'>) => deps.activity.add({ id: uuidv7(), at: deps.clock.now().toISOString(), client: clientName(), ...entry });

  // Paged: a client reads a hundred tools at a time, never one page of thousands.
  server.setRequestHandler(ListToolsRequestSchema, async (request) => {
    const { shared, mode } = await offered();
    return toolsPage(session.listed(shared, mode), request.params?.cursor);
  });

  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const started = performance.now();
    const { name } = request.params;
    const args = request.params.arguments ?? {};
    const { shared: everything, mode } = await offered();
    if (name === TOOL_SEARCH_NAME && mode === 'search') {
      const outcome = session.search(args, everything);
      if (outcome.found) inBackground(server.sendToolListChanged(), (error) => deps.log.debug('an MCP client could not be told its tool list grew', { error: String(error) }));
      record({ tool: name, displayName: 'Search tools', args: cut(valueText(args)), ok: !outcome.isError, result: cut(outcome.text), durationMs: Math.round(performance.now() - started), approval: 'not-needed' });
      return { isError: outcome.isError, content: [{ type: 'text', text: outcome.text }] };
    }
    // Any shared tool can be called by name, listed in this session or not (a client may call what a search named).
    const shared = everything.find((candidate) => candidate.name === name);
    if (!shared) {
      // The name is the client's: said back cut, so a 100 kB name does not come back whole.
      const said = [...name].length > 80 ? `${[...name].slice(0, 80).join('')}…` : name;
      throw new McpError(ErrorCode.InvalidParams, `There is no shared tool named "${said}": it is not shared, is switched off, or was deleted. List the tools again.`);
    }
    // The guard every call through the operation table passes (nesting, lone surrogates), before anything walks the arguments.
    const unsafe = jsonValueProblem(args, { text: true });
    const { outcome, answer } = unsafe
      ? refusal(`Invalid arguments for ${shared.record.tool.displayName}: ${unsafe.path} ${unsafe.message}.`, 'invalid_args', 'not-needed')
      : await run(shared, args, extra, readLineage(request.params._meta));
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
    });
    return answer;
  });
  return server;
}

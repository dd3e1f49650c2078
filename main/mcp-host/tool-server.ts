import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ErrorCode, ListToolsRequestSchema, McpError, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { v7 as uuidv7 } from 'uuid';
import { ToolbeltError } from '../../shared/errors.js';
import type { InvokeResult } from '../../shared/schemas/invocation.js';
import type { McpActivity } from '../../shared/schemas/mcp-share.js';
import type { Clock } from '../common/clock.js';
import type { LiveQuestions } from '../questions/live-questions.js';
import type { Invoker } from '../tools/invoker.js';
import type { ActivityLog } from './activity.js';
import type { SharedTool } from './shared-tools.js';

const SHOWN_CHARS = 4_096;

export interface ToolServerDeps {
  app: { name: string; version: string };
  sharedTools(): SharedTool[];
  invoker: Invoker;
  questions: LiveQuestions;
  /** Whether a Toolbelt window is there to approve a call. */
  windowOpen(): boolean;
  activity: ActivityLog;
  clock: Clock;
}

const cut = (text: string) => (text.length > SHOWN_CHARS ? `${text.slice(0, SHOWN_CHARS)}…` : text);
const asText = (value: unknown) => (typeof value === 'string' ? value : JSON.stringify(value, null, 2) ?? 'null');

function failed(message: string): CallToolResult {
  return { isError: true, content: [{ type: 'text', text: message }] };
}

/** A tool's outcome as MCP content: the value as text, and as structured content when the tool declares an object output. */
function callResult(shared: SharedTool, result: InvokeResult): CallToolResult {
  if (!result.ok) return failed(result.error.message);
  const structured = shared.definition.outputSchema && result.value && typeof result.value === 'object' && !Array.isArray(result.value);
  return { content: [{ type: 'text', text: asText(result.value) }], ...(structured ? { structuredContent: result.value as Record<string, unknown> } : {}) };
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
      capabilities: { tools: { listChanged: true } },
      instructions: 'Tools the person built and tested in Toolbelt. Some ask the person before they run; a declined call says so.',
    },
  );
  const clientName = () => {
    const info = server.getClientVersion();
    return (info?.title ?? info?.name ?? 'An MCP client').slice(0, 200);
  };

  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: deps.sharedTools().map((shared) => shared.definition) }));

  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const started = performance.now();
    const name = request.params.name;
    const args = request.params.arguments ?? {};
    const shared = deps.sharedTools().find((candidate) => candidate.name === name);
    const client = clientName();
    const record = (outcome: { ok: boolean; result: string; errorCode?: string; approval: McpActivity['approval'] }) =>
      deps.activity.add({
        id: uuidv7(),
        at: deps.clock.now().toISOString(),
        client,
        tool: name.slice(0, 200),
        ...(shared ? { displayName: shared.record.tool.displayName, bundleID: shared.record.bundleID } : {}),
        args: cut(asText(args)),
        ok: outcome.ok,
        result: cut(outcome.result),
        ...(outcome.errorCode ? { errorCode: outcome.errorCode } : {}),
        durationMs: Math.round(performance.now() - started),
        approval: outcome.approval,
      });
    if (!shared) throw new McpError(ErrorCode.InvalidParams, `There is no shared tool named "${name}": it is not shared, is switched off, or was deleted. List the tools again.`);
    const { tool } = shared.record;

    let approval: McpActivity['approval'] = 'not-needed';
    if (tool.requiresApproval) {
      if (!deps.windowOpen()) {
        const message = `${tool.displayName} asks the person before every call, and no Toolbelt window is open to ask in. Open Toolbelt and approve it there, or switch off "Ask before every call" for this tool.`;
        record({ ok: false, result: message, errorCode: 'approval_unavailable', approval: 'no-window' });
        return failed(message);
      }
      const answer = await deps.questions.ask(
        { kind: 'mcp-client', client },
        `${client} wants to run ${tool.displayName}.`,
        { type: 'object', properties: {} },
        extra.signal,
        { bundleID: shared.record.bundleID, slug: tool.slug, version: tool.version, displayName: tool.displayName, args },
      );
      if (answer.action !== 'accept') {
        const message = `The person declined to run ${tool.displayName}. Do not try it again unless they ask.`;
        record({ ok: false, result: message, errorCode: 'approval_declined', approval: 'declined' });
        return failed(message);
      }
      approval = 'approved';
    }

    // The ask-user built-in asks through the client when it can show a form.
    const canAsk = server.getClientCapabilities()?.elicitation !== undefined;
    const askUser = canAsk
      ? async (question: string, choices?: string[]) => {
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
            { signal: extra.signal },
          );
          if (answer.action !== 'accept') throw new Error('The person did not answer.');
          return String(answer.content?.answer ?? '');
        }
      : undefined;

    let result: InvokeResult;
    try {
      result = await deps.invoker.invoke(shared.record, { args }, { signal: extra.signal, ...(askUser ? { askUser } : {}) });
    } catch (error) {
      // Bad arguments and a tool that stopped being runnable are the caller's to fix: said as a failed call.
      if (!(error instanceof ToolbeltError)) throw error;
      record({ ok: false, result: error.message, errorCode: error.code, approval });
      return failed(error.message);
    }
    record(result.ok ? { ok: true, result: asText(result.value), approval } : { ok: false, result: result.error.message, errorCode: result.error.code, approval });
    return callResult(shared, result);
  });
  return server;
}

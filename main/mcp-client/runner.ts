import { ProtocolError, SdkError, SdkErrorCode, type CallToolResult } from '@modelcontextprotocol/client';
import { ToolbeltError } from '../../shared/errors.js';
import type { ToolFile } from '../../shared/schemas/tool.js';
import { settle } from '../common/settle.js';
import { InvokeFailure } from '../tools/invoke-error.js';
import { NO_SECRETS } from '../common/redact.js';
import type { ToolRunner } from '../tools/runners.js';
import type { McpConnection } from './connection.js';
import { freshBudget, lineageMeta } from '../tools/run-lineage.js';
import { CallNeedsSignIn } from './start-failure.js';
import { isDeepStrictEqual } from 'node:util';
import type { ContentBlock } from '../../shared/mcp/content-blocks.js';
import { socketReason } from '../common/socket-reason.js';
import { TaskAskedTooOften, TaskCancelledError, TaskFailedError, TaskLost, TaskOutlived } from './task-call.js';

type McpTool = Extract<ToolFile, { type: 'mcp' }>;

const DEFAULT_TIMEOUT_MS = 60_000;

/**
 * What a tool call's result becomes: structured content when the server
 * sends it (checked against the tool's outputSchema by the invoker), with
 * its content blocks beside it when they say more than the value (the
 * filesystem server's read_media_file sends its picture both ways: as
 * structured content only, a model got the picture as base64 text); one
 * text as a string, anything richer (images, resource links, several
 * blocks) as the content list; `isError` as a failed call the model reads.
 */
function resultValue(result: CallToolResult): { value: unknown; content?: ContentBlock[] } | { error: string } {
  const content = result.content ?? [];
  const texts = content.filter((block): block is Extract<typeof block, { type: 'text' }> => block.type === 'text').map((block) => block.text);
  if (result.isError) return { error: texts.join('\n').trim() || 'The tool reported an error without saying what.' };
  if (result.structuredContent !== undefined) {
    const blocks = content as ContentBlock[];
    return sayMoreThan(blocks, result.structuredContent) ? { value: result.structuredContent, content: blocks } : { value: result.structuredContent };
  }
  // One text is the value itself, unless it says who it is for (then the blocks keep that).
  if (content.length === 1 && texts.length === 1 && !content[0]!.annotations?.audience) return { value: texts[0] };
  return { value: content };
}

/**
 * Whether content blocks say more than the structured value they came with:
 * anything but text, or a text that is not the value written as JSON (the
 * spec asks servers to repeat the value so; that copy is not kept twice).
 */
function sayMoreThan(blocks: ContentBlock[], value: unknown): boolean {
  return blocks.some((block) => {
    if (block.type !== 'text') return true;
    try {
      return !isDeepStrictEqual(JSON.parse(block.text), value);
    } catch {
      return true;
    }
  });
}

/** How a call that ran as an MCP task ended, when it did not end with a result; null for any other failure. */
function taskFailure(error: unknown): { code: 'timeout' | 'mcp_error' | 'mcp_task_lost' | 'mcp_input_rounds'; message: string } | null {
  if (error instanceof TaskOutlived) return { code: 'timeout', message: `${error.message}.` };
  if (error instanceof TaskAskedTooOften) return { code: 'mcp_input_rounds', message: `${error.message}. The server may be stuck: try again, or tell its author.` };
  if (error instanceof TaskLost) return { code: 'mcp_task_lost', message: `${error.message}.` };
  // ext-tasks refuses a task status or result the extension's schemas do not allow: the server's fault, said so.
  if (error instanceof TaskFailedError && /failed schema validation/.test(error.message)) return { code: 'mcp_error', message: `the server answered about its task in a shape MCP tasks do not allow (${error.message}). Tell the server's author.` };
  if (error instanceof TaskFailedError) return { code: 'mcp_error', message: `the task failed${error.code !== undefined ? ` (JSON-RPC error ${error.code})` : ''}: ${error.message}` };
  if (error instanceof TaskCancelledError) return { code: 'mcp_error', message: 'the server cancelled the task before it finished.' };
  return null;
}

/** Tools of MCP servers: run on the server's connection, with its timeout; progress restarts the clock. */
export function mcpRunner(servers: { connection(name: string): McpConnection | undefined; timeoutMs(name: string): number | undefined; ensureStarted(name: string): Promise<void> }): ToolRunner<McpTool> {
  return {
    availability(tool) {
      const connection = servers.connection(tool.impl.server);
      if (!connection) return `the MCP server "${tool.impl.server}" is not configured`;
      if (connection.state === 'failed') return `the MCP server "${tool.impl.server}" is not running: ${connection.failure?.message ?? 'it failed'}`;
      return null;
    },
    preview: async () => null,
    logLevel: () => 'info',
    instructions(tool) {
      const text = servers.connection(tool.impl.server)?.instructions;
      return text ? { from: `the MCP server "${tool.impl.server}"`, text } : null;
    },
    async run(tool, args, context) {
      const redactor = NO_SECRETS;
      const failed = (code: 'tool_error' | 'timeout' | 'cancelled' | 'network' | 'mcp_error' | 'mcp_task_lost' | 'mcp_input_rounds' | 'sign_in_required' | 'scope_refused', message: string) => ({ failure: new InvokeFailure(code, message), redactor, attempts: 1 });
      // The first call starts a server that waits for its first use (a connected one goes straight on).
      if (servers.connection(tool.impl.server)?.state !== 'connected') await servers.ensureStarted(tool.impl.server);
      const connection = servers.connection(tool.impl.server);
      if (!connection || connection.state !== 'connected') return failed('network', connection?.failure?.message ?? `The MCP server "${tool.impl.server}" is not connected.`);
      const timeoutMs = context.timeoutMs ?? servers.timeoutMs(tool.impl.server) ?? DEFAULT_TIMEOUT_MS;
      // Inside an agent, the call says how deep it is and what its run may still spend: when the server is Toolbelt
      // again (an agent shared over MCP and added back), the agents on the other side go on counting.
      const meta = context.agentPath?.length ? lineageMeta({ depth: context.agentPath.length, budget: context.budget ?? freshBudget() }) : undefined;
      const resume = context.task?.resume;
      const call = () =>
        connection.callTool(tool.impl.tool, args, {
          ...(resume ? { resume } : {}),
          ...(context.task?.started ? { onTaskStarted: context.task.started } : {}),
          signal: context.signal,
          timeoutMs,
          ...(meta ? { meta } : {}),
          // Asking for progress is what lets a working server's progress restart the timeout.
          onProgress: ({ progress, total, message }) =>
            context.onProgress?.({ progress, ...(total !== undefined ? { total } : {}), ...(message ? { message: message.slice(0, 500) } : {}) }),
        });
      // The tester asks for a trace: the call's JSON-RPC messages come back with its outcome.
      const { outcome, messages } = context.trace ? await connection.recording(tool.impl.tool, call) : { outcome: await settle(call()), messages: undefined };
      const rpc = messages ? { rpc: messages } : {};
      if (outcome.status === 'rejected') {
        const error: unknown = outcome.reason;
        if (context.signal.aborted) return { ...failed('cancelled', `${tool.displayName} was cancelled; the server was told to stop.`), ...rpc };
        const message = error instanceof Error ? error.message : String(error);
        if (/timed out|timeout/i.test(message)) return { ...failed('timeout', `${tool.displayName} timed out after ${timeoutMs} ms on the MCP server "${tool.impl.server}".`), ...rpc };
        // The server answered, with an error of its own: not the network's fault, and said as the server said it.
        if (error instanceof SdkError && error.code === SdkErrorCode.InputRequiredRoundsExceeded) {
          return { ...failed('mcp_input_rounds', `${tool.displayName} on the MCP server "${tool.impl.server}" kept asking for more input (${message}); Toolbelt stopped the call. The server may be stuck: try again, or tell its author.`), ...rpc };
        }
        const task = taskFailure(error);
        if (task) return { ...failed(task.code, `${tool.displayName} on the MCP server "${tool.impl.server}": ${task.message}`), ...rpc };
        if (error instanceof SdkError && error.code === SdkErrorCode.InvalidResult) {
          return { ...failed('mcp_error', `${tool.displayName} on the MCP server "${tool.impl.server}" answered in a shape MCP does not allow (${message.slice(0, 300)}). Tell the server's author.`), ...rpc };
        }
        if (error instanceof ProtocolError) return { ...failed('mcp_error', `${tool.displayName} failed on the MCP server "${tool.impl.server}" (JSON-RPC error ${error.code}): ${message.replace(/^(?:MCP error -?\d+: )+/, '')}`), ...rpc };
        if (error instanceof ToolbeltError) return { ...failed('mcp_error', error.message), ...rpc };
        if (error instanceof CallNeedsSignIn) return { ...failed(error.code, error.message), ...rpc };
        const reason = error instanceof Error && error.cause ? socketReason(error.cause) : null;
        return { ...failed('network', `${tool.displayName} failed on the MCP server "${tool.impl.server}": ${message}${reason ? ` (${reason})` : ''}`), ...rpc };
      }
      const result = outcome.value;
      const mapped = resultValue(result);
      if ('error' in mapped) return { ...failed('tool_error', mapped.error), ...rpc };
      return { value: mapped.value, ...(mapped.content ? { content: mapped.content } : {}), redactor, attempts: 1, ...rpc };
    },
  };
}

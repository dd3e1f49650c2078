import type { JSONRPCMessage, Transport } from '@modelcontextprotocol/client';
import type { DispatchOptions, JsonRpcResponse, RawClientDispatch } from '@modelcontextprotocol/ext-tasks/client';
import type { JsonValue } from '@modelcontextprotocol/ext-tasks/core';
import { ToolbeltError } from '../../shared/errors.js';

/** Ids of our own requests: never a number, so never one the SDK client counts out. */
const RAW_ID_PREFIX = 'toolbelt-raw-';

/**
 * Requests sent past the SDK client, on its own transport. The 2026-07-28
 * tasks extension answers tools/call with `resultType: "task"`, which the
 * SDK's result decoding refuses; ext-tasks therefore asks its host for a raw
 * request path (`rawDispatch`) for tools/call and tasks/*. The request is
 * sent through the transport the SDK uses, which derives the revision's
 * headers (MCP-Protocol-Version, Mcp-Method, Mcp-Name) and the sign-in from
 * the message as it does for the SDK's own; the answer to one of our ids is
 * taken before the SDK sees it. Made right after connecting, before anything
 * else (the tester's tap) wraps the transport's receiver.
 */
export class RawRequests {
  private readonly waiting = new Map<string, { settle: (message: JSONRPCMessage) => void; fail: (error: Error) => void }>();
  private sent = 0;
  private closed = false;

  constructor(
    private readonly transport: Transport,
    private readonly defaultTimeoutMs: number,
  ) {
    const receive = transport.onmessage;
    transport.onmessage = (message, extra) => {
      if (!this.take(message)) receive?.(message, extra);
    };
    const close = transport.onclose;
    transport.onclose = () => {
      this.closed = true;
      for (const { fail } of this.waiting.values()) fail(new ToolbeltError('mcp_error', 'The MCP server’s connection closed while a task request was on its way.'));
      this.waiting.clear();
      close?.();
    };
  }

  private take(message: JSONRPCMessage): boolean {
    if (!('id' in message) || 'method' in message || typeof message.id !== 'string' || !message.id.startsWith(RAW_ID_PREFIX)) return false;
    const pending = this.waiting.get(message.id);
    if (!pending) return true; // an answer to a request given up on: nobody else is waiting for it either
    this.waiting.delete(message.id);
    pending.settle(message);
    return true;
  }

  readonly dispatch: RawClientDispatch = (request: JsonValue, options?: DispatchOptions) => {
    if (this.closed) return Promise.reject(new ToolbeltError('mcp_error', 'The MCP server’s connection is closed.'));
    const id = `${RAW_ID_PREFIX}${++this.sent}`;
    const message = { ...(request as Record<string, unknown>), jsonrpc: '2.0', id } as JSONRPCMessage;
    const timeoutMs = options?.context?.requestTimeoutMs ?? this.defaultTimeoutMs;
    const signal = options?.signal;
    return new Promise<JsonRpcResponse>((resolve, reject) => {
      const done = () => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        this.waiting.delete(id);
      };
      const fail = (error: Error) => {
        done();
        reject(error);
      };
      const onAbort = () => fail(signal?.reason instanceof Error ? signal.reason : new DOMException('The request was cancelled.', 'AbortError'));
      const timer = setTimeout(() => fail(new ToolbeltError('mcp_error', `The MCP server did not answer ${String((request as { method?: unknown }).method)}: the request timed out after ${Math.round(timeoutMs / 1000)} s.`)), timeoutMs);
      if (signal?.aborted) return onAbort();
      signal?.addEventListener('abort', onAbort, { once: true });
      this.waiting.set(id, {
        fail,
        settle: (answer) => {
          done();
          if ('error' in answer) resolve({ kind: 'error', error: { code: answer.error.code, message: answer.error.message, ...(answer.error.data === undefined ? {} : { data: answer.error.data as JsonValue }) } });
          else if ('result' in answer) resolve({ kind: 'result', result: answer.result as JsonValue });
          else reject(new ToolbeltError('mcp_error', 'The MCP server answered a task request with neither a result nor an error.'));
        },
      });
      this.transport.send(message).catch((error: unknown) => fail(error instanceof Error ? error : new Error(String(error))));
    });
  };
}

import type { FetchLike } from '@modelcontextprotocol/client';
import { Agent, fetch as undiciFetch } from 'undici';

/**
 * How long a connection to a remote MCP server may sit unused and still be used again. Servers close idle
 * connections on their own clock (Node's after 5 s); a connection idle this long is not reused.
 */
const IDLE_REUSE_MS = 2_000;

const agent = new Agent({ keepAliveTimeout: IDLE_REUSE_MS, keepAliveMaxTimeout: IDLE_REUSE_MS });

type UndiciInit = NonNullable<Parameters<typeof undiciFetch>[1]>;

/**
 * fetch for the SDK's HTTP transports to remote MCP servers (undici's own, which takes this agent; the global one's
 * types differ). A request sent on a kept connection that the server had already closed fails at once ("other side
 * closed"), before any answer: the server closed it idle and never read the request. That request is sent once more,
 * on a new connection, as browsers do for a reused connection. The same race seen from the other side is a reset
 * (ECONNRESET, EPIPE): the server's system answers data on a connection its program had closed with a reset, before
 * any answer, and that request is sent once more too (undici does not say which connection a reset came on; a
 * program that read a request does not reset its connection before answering). Seen on the conformance suite's busy
 * servers in spite of the idle limit above. A request closed without a reset on a new connection, or failing after
 * any answer began, is not repeated (a tools/call may then have run).
 */
export const mcpFetch: FetchLike = async (url, init) => {
  const send = async (): Promise<Response> => {
    // undici's Response and the global one are the same class at run time, two declarations to the compilers.
    const answer: unknown = await undiciFetch(url, { ...init, dispatcher: agent } as UndiciInit);
    return answer as Response;
  };
  try {
    return await send();
  } catch (error) {
    if (!closedWhileKept(error) || init?.signal?.aborted || !replayable(init?.body)) throw error;
    return send();
  }
};

/** The socket had carried an earlier answer (it was kept) and was closed by the other side, or was reset, before this one began. */
function closedWhileKept(error: unknown): boolean {
  const cause = (error as { cause?: { code?: unknown; socket?: { bytesRead?: unknown } } } | null)?.cause;
  if (cause?.code === 'ECONNRESET' || cause?.code === 'EPIPE') return true;
  return cause?.code === 'UND_ERR_SOCKET' && typeof cause.socket?.bytesRead === 'number' && cause.socket.bytesRead > 0;
}

/** A body that can be sent again as it was: none, or text (the SDK sends JSON-RPC as a string). */
function replayable(body: unknown): boolean {
  return body === undefined || body === null || typeof body === 'string';
}

import { ProtocolError, ProtocolErrorCode, SdkError, SdkErrorCode, type Client, type Tool } from '@modelcontextprotocol/client';
import { allPages, withinLimits } from './list-pages.js';
import { TOOL_PAGE } from './tool-page.js';

interface ListingOptions {
  signal: AbortSignal;
  timeoutMs: number;
  onCut: (why: string) => void;
}

/**
 * A server's whole tool list, as the SDK reads it: every page, kept by the `ttlMs` the server gives (no list request
 * inside it; a change notice ends it), tools whose declared headers (`x-mcp-header`) are malformed left out, and the
 * list the SDK then uses to mirror those headers and check output on each call. Two servers it cannot read so:
 * one whose cursor never ends (past LIST_LIMITS.pages) and one whose schema nests past the stack. Those are walked a
 * page at a time within Toolbelt's limits (list-pages.ts), each tool checked on its own (tool-page.ts), and what was
 * read is kept. Either way the list is cut to LIST_LIMITS' items and size.
 */
export async function listAllTools(client: Client, options: ListingOptions): Promise<Tool[]> {
  try {
    return await readList(client, options);
  } catch (error) {
    // A server of prompts or resources only (no tools capability) may not know tools/list: no tools, no failure.
    if (!client.getServerCapabilities()?.tools && error instanceof ProtocolError && error.code === Number(ProtocolErrorCode.MethodNotFound)) return [];
    throw error;
  }
}

async function readList(client: Client, options: ListingOptions): Promise<Tool[]> {
  const request = { signal: options.signal, timeout: options.timeoutMs };
  try {
    return withinLimits((await client.listTools(undefined, request)).tools, options.onCut);
  } catch (error) {
    if (!needsWalking(error)) throw error;
    const page = (cursor: string | undefined) => client.request({ method: 'tools/list', params: cursor ? { cursor } : {} }, TOOL_PAGE, request);
    return allPages((cursor) => page(cursor).then(({ tools, nextCursor }) => ({ items: tools, next: nextCursor })), options.onCut);
  }
}

/**
 * The SDK's cap on pages, or its check of a whole page breaking on what one tool holds: a schema nested past the
 * stack ends in a RangeError, or in a TypeError from the validator's own report of it. A TypeError with a cause is
 * fetch's failure to connect, which walking would not mend.
 */
function needsWalking(error: unknown): boolean {
  if (error instanceof SdkError && error.code === SdkErrorCode.ListPaginationExceeded) return true;
  for (let cause: unknown = error; cause instanceof Error; cause = cause.cause) {
    if (cause instanceof RangeError || (cause instanceof TypeError && cause.cause === undefined)) return true;
  }
  return false;
}

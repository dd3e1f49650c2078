import type { CallToolResult, ServerContext } from '@modelcontextprotocol/server';
import { inBackground } from '../common/background.js';
import type { Logger } from '../log.js';

/** The request a call is answering now: a call that asks the person spans several (2026-07-28's rounds). */
export interface Round {
  ctx: ServerContext;
}

export function failed(message: string): CallToolResult {
  return { isError: true, content: [{ type: 'text', text: message }] };
}

/**
 * While the person decides, a progress notice now and then, for a client
 * that asked for progress: clients give up on a call after a while (a minute
 * by default in the SDK's) unless progress comes, and a person may take
 * longer than that to read the dialog. Returns what stops the notices.
 */
export function tellWhileWaiting(round: Round, message: string, everyMs: number, log: Logger): () => void {
  const progressToken = round.ctx.mcpReq._meta?.progressToken;
  if (progressToken === undefined) return () => {};
  let progress = 0;
  const tell = () => {
    progress++;
    const notice = round.ctx.mcpReq.notify({ method: 'notifications/progress', params: { progressToken, progress, message } });
    inBackground(notice, (error) => log.warn('a progress notice to an MCP client failed', { error: String(error) }));
  };
  tell();
  const timer = setInterval(tell, everyMs);
  timer.unref();
  return () => clearInterval(timer);
}

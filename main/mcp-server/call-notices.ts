import type { CallToolResult, ServerContext } from '@modelcontextprotocol/server';
import { inBackground } from '../common/background.js';
import type { ToolProgress } from '../../shared/schemas/chat.js';
import type { Logger } from '../log.js';

/** The request a call is answering now: a call that asks the person spans several (2026-07-28's rounds). */
export interface Round {
  ctx: ServerContext;
  /** Progress notices sent for this request so far: each must count higher than the last, whoever sends it. */
  progressSent?: number;
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
  const tell = () => notifyProgress(round, progressToken, message, log);
  tell();
  const timer = setInterval(tell, everyMs);
  timer.unref();
  return () => clearInterval(timer);
}

/**
 * What the tool says of how far it is (a recipe's steps, a stream's events, an MCP server's own progress), passed
 * on to a client that asked for progress; none for one that did not. The count is this request's own (the
 * protocol wants it to grow), the tool's words and figures are the message.
 */
export function relayToolProgress(round: Round, log: Logger): ((progress: ToolProgress) => void) | undefined {
  const progressToken = round.ctx.mcpReq._meta?.progressToken;
  if (progressToken === undefined) return undefined;
  return ({ progress, total, message }) => notifyProgress(round, progressToken, message ?? (total !== undefined ? `${progress} of ${total}` : String(progress)), log);
}

function notifyProgress(round: Round, progressToken: string | number, message: string, log: Logger): void {
  round.progressSent = (round.progressSent ?? 0) + 1;
  const notice = round.ctx.mcpReq.notify({ method: 'notifications/progress', params: { progressToken, progress: round.progressSent, message } });
  inBackground(notice, (error) => log.warn('a progress notice to an MCP client failed', { error: String(error) }));
}

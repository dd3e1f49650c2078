import { randomBytes } from 'node:crypto';
import { createRequestStateCodec, type ServerContext } from '@modelcontextprotocol/server';
import { ANSWER_WAIT_MS } from './call-rounds.js';

/**
 * The state a 2026-07-28 client carries between the rounds of a call that
 * asks the person (`requestState`): which waiting call its answer is for,
 * sealed with a key this process alone holds (the calls live in this process
 * only), bound to `tools/call`, and good for as long as a call waits.
 */
export interface CallState {
  mint(callID: string, ctx: ServerContext): Promise<string>;
  /** The call's id, or a throw the SDK answers as "Invalid or expired requestState". */
  verify(state: string, ctx: ServerContext): Promise<string>;
}

export function callStateSeal(): CallState {
  const codec = createRequestStateCodec<string>({ key: randomBytes(32), ttlSeconds: ANSWER_WAIT_MS / 1000, bind: (ctx) => ctx.mcpReq.method });
  return { mint: (callID, ctx) => codec.mint(callID, ctx), verify: (state, ctx) => codec.verify(state, ctx) };
}

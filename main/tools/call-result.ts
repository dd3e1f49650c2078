import type { ToolCallResult } from '../../shared/schemas/chat.js';
import type { InvokeResult } from '../../shared/schemas/invocation.js';

/** A call's outcome as a chat keeps it (and a model reads it): the value or the error, with its timing and steps. */
export function callResult(result: InvokeResult): ToolCallResult {
  const steps = { ...(result.steps ? { steps: result.steps } : {}), ...(result.hooks ? { hooks: result.hooks } : {}), ...(result.hookContext ? { hookContext: result.hookContext } : {}) };
  if (result.ok) {
    return { ok: true, value: result.value, ...(result.content ? { content: result.content } : {}), ...(result.status !== undefined ? { status: result.status } : {}), durationMs: result.durationMs, attempts: result.attempts, ...steps };
  }
  return { ok: false, error: result.error, durationMs: result.durationMs, attempts: result.attempts, ...steps };
}

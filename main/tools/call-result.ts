import type { ToolCallResult } from '../../shared/schemas/chat.js';
import type { InvokeResult } from '../../shared/schemas/invocation.js';

/** A call's outcome as a chat keeps it (and a model reads it): the value or the error, with its timing and steps. */
export function callResult(result: InvokeResult): ToolCallResult {
  const steps = { ...(result.steps ? { steps: result.steps } : {}), ...(result.hooks ? { hooks: result.hooks } : {}), ...(result.hookContext ? { hookContext: result.hookContext } : {}) };
  if (result.ok) {
    const mismatch = result.outputMismatch ? { outputMismatch: result.outputMismatch } : {};
    return { ok: true, value: result.value, ...(result.content ? { content: result.content } : {}), ...(result.status !== undefined ? { status: result.status } : {}), ...mismatch, durationMs: result.durationMs, attempts: result.attempts, ...steps };
  }
  // The whole answer an outputSchema refused is the tester's; a chat keeps the bounded snippet the model reads.
  const { answer: _answer, ...error } = result.error;
  return { ok: false, error, durationMs: result.durationMs, attempts: result.attempts, ...steps };
}

import type { HookRun } from '../../shared/schemas/hooks.js';
import type { InvokeResult } from '../../shared/schemas/invocation.js';
import type { AfterCall, BeforeCall } from '../hooks/tool-hooks.js';

/** What hooks may give a model with one result, in all. */
const MAX_HOOK_CONTEXT = 20_000;

/** A call's result with the hooks that ran around it, and what they gave the model to read. */
export function withHookRuns(result: InvokeResult, before: BeforeCall | null, after: AfterCall | null, inside: readonly HookRun[] = []): InvokeResult {
  const runs = [...(before?.runs ?? []), ...inside, ...(after?.runs ?? [])];
  if (runs.length === 0) return result;
  return { ...result, hooks: runs, ...hookContextOf([...(before?.context ?? []), ...(after?.context ?? [])]) };
}

/** What hooks gave the model (for one result, one message, one chat), joined and cut to MAX_HOOK_CONTEXT. */
export function hookContextOf(said: readonly string[]): { hookContext?: string } {
  const context = said.join('\n\n');
  return context ? { hookContext: context.length > MAX_HOOK_CONTEXT ? `${context.slice(0, MAX_HOOK_CONTEXT)}…` : context } : {};
}

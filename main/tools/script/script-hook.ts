import type { CommandOutcome } from '../../hooks/command-hook.js';
import type { ToolStore } from '../../store/tool-store.js';
import type { ToolRunner } from '../runners.js';
import { findToolByName } from './tool-calls.js';

/**
 * A script hook: the person's script tool run in the sandbox (no process started), straight through its runner and
 * not the invoker (a hook is not a tool call of its own; tools it calls go through the invoker and its hooks). What it
 * returns is read as what a command prints; its failure is an error that blocks nothing.
 */
export function scriptHookRunner(store: ToolStore, runner: () => ToolRunner) {
  return async (name: string, input: Record<string, unknown>, options: { timeoutMs: number; signal?: AbortSignal }): Promise<CommandOutcome> => {
    const record = findToolByName(store, name);
    if (record === 'ambiguous') return { exitCode: null, stdout: '', stderr: '', failure: 'not_started', reason: `several bundles have a tool named ${name}: name it <bundle slug>/<slug>` };
    if (record?.kind !== 'valid' || record.tool.type !== 'script') return { exitCode: null, stdout: '', stderr: '', failure: 'not_started', reason: `there is no script tool named ${name} that is switched on` };
    const outcome = await runner().run(record.tool, input, { signal: options.signal ?? new AbortController().signal, timeoutMs: options.timeoutMs, trace: false });
    if (outcome.failure) return { exitCode: 1, stdout: '', stderr: outcome.failure.message };
    const value = outcome.value;
    return { exitCode: 0, stdout: value === undefined || value === null ? '' : typeof value === 'string' ? value : JSON.stringify(value), stderr: '' };
  };
}

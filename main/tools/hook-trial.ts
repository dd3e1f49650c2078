import type { Handlers } from '../api/dispatcher.js';
import type { Hooks } from '../../shared/schemas/hooks.js';
import type { ToolHooks } from '../hooks/tool-hooks.js';
import { PERSON } from '../consent/consent.js';
import { NOT_CANCELLABLE } from '../common/signals.js';
import type { ToolStore } from '../store/tool-store.js';
import { fileInvalid } from '../store/tool-files.js';

/**
 * `hooks.try`: the hooks of one event run on a sample call, the tool never run. What a person reads on the Hooks page
 * before trusting a hook with real calls: each run, and what the call would have become.
 */
export function hookTrialHandlers(store: ToolStore, hooksFor: (draft?: Hooks) => ToolHooks): Pick<Handlers, 'hooks.try'> {
  return {
    'hooks.try': async ({ event, bundleID, toolSlug, version, args, response, error, hooks }, context) => {
      const record = await store.requireTool(bundleID, toolSlug, version);
      if (record.kind !== 'valid') throw fileInvalid(record.file, record.reason);
      const { tool } = record;
      const runner = hooksFor(hooks);
      const call = { caller: { ...PERSON, trial: true }, signal: context.signal ?? NOT_CANCELLABLE };
      if (event === 'PreToolUse') {
        const before = await runner.before(tool, args, call);
        if (!before) return { runs: [], outcome: 'goes-on' as const, context: [] };
        const updated = before.updatedInput ? { updatedInput: before.updatedInput } : {};
        const base = { runs: before.runs, context: before.context, ...updated };
        if (before.refusal) return { ...base, outcome: 'refused' as const, message: before.refusal.message, code: before.refusal.code };
        if (before.ask) return { ...base, outcome: 'asks' as const, message: before.ask };
        return { ...base, outcome: before.allow ? ('allowed' as const) : ('goes-on' as const) };
      }
      const result =
        event === 'PostToolUse'
          ? { ok: true as const, value: response ?? null, durationMs: 0, attempts: 1 }
          : { ok: false as const, error: { code: 'tool_failed', message: error ?? 'The tool failed.' }, durationMs: 0, attempts: 1 };
      const after = await runner.after(tool, args, call, result);
      return { runs: after?.runs ?? [], outcome: 'goes-on' as const, context: after?.context ?? [] };
    },
  };
}

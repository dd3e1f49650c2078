import { AGENT_MAX_DEPTH } from '../../../shared/schemas/agent.js';
import { ToolbeltError } from '../../../shared/errors.js';
import type { ToolFile } from '../../../shared/schemas/tool.js';
import type { ScriptToolCall, ScriptToolCallResult } from '../../script-sandbox/sandbox-protocol.js';
import type { ToolRecord } from '../../store/records.js';
import type { ToolStore } from '../../store/tool-store.js';
import type { Invoker } from '../invoker.js';
import { lineageFlags, type RunContext } from '../runners.js';
import { freshBudget, spend } from '../run-lineage.js';
import type { AgentStep } from '../../../shared/schemas/agent-step.js';

/** The calls a run keeps as steps; more are made but not shown. */
const MAX_STEPS = 200;

export type ScriptTool = Extract<ToolFile, { type: 'script' }>;

export interface ScriptCallDeps {
  /** The tool a script names: `slug` when one enabled tool has it, or `bundle-slug/slug`. */
  find(name: string): ToolRecord | undefined | 'ambiguous';
  invoker: () => Invoker;
}

const refused = (code: string, message: string): ScriptToolCallResult => ({ ok: false, error: { code, message } });

/**
 * A script's `tools.call(name, args)`: the tool found by name, then run by
 * the invoker as the script's call (its door asks the person when the tool
 * asks first, naming the path, "join-orders → list-issues") inside the
 * script's lineage, so
 * scripts and agents nest at most AGENT_MAX_DEPTH deep and a run's budget of
 * tool calls holds across them. A failed call is an error the script catches.
 */
export function toolCaller(deps: ScriptCallDeps, tool: ScriptTool, context: RunContext, steps: AgentStep[]) {
  const path = [...(context.agentPath ?? []), tool.displayName];
  const budget = context.budget ?? freshBudget();
  return async (request: ScriptToolCall): Promise<ScriptToolCallResult> => {
    const started = performance.now();
    const answer = await callOnce(request);
    // Each call is a step of the run, as an agent's are: the card and the tester show them folded.
    if (steps.length < MAX_STEPS) {
      const summary = answer.ok ? (JSON.stringify(answer.value) ?? 'null') : `${answer.error.code}: ${answer.error.message}`;
      steps.push({
        turn: 1,
        kind: 'call',
        name: request.name,
        ...(answer.target ? { tool: answer.target } : {}),
        args: request.args && typeof request.args === 'object' ? request.args : {},
        ok: answer.ok,
        summary: summary.slice(0, 500),
        durationMs: Math.round(performance.now() - started),
      });
    }
    const { target: _target, ...result } = answer;
    return result;
  };

  async function callOnce({ name, args }: ScriptToolCall): Promise<ScriptToolCallResult & { target?: string }> {
    if (path.length >= AGENT_MAX_DEPTH + 1) {
      return refused('agent_depth', `${name} was not called: scripts and agents may call tools only ${AGENT_MAX_DEPTH} deep (${path.join(' → ')}).`);
    }
    if (!args || typeof args !== 'object' || Array.isArray(args)) return refused('invalid_args', `tools.call("${name}", …) takes its arguments as an object.`);
    const target = deps.find(name);
    if (target === 'ambiguous') return refused('unknown_tool', `More than one enabled tool is named "${name}": call it as "bundle-slug/${name}".`);
    if (!target || target.kind !== 'valid') return refused('unknown_tool', `There is no enabled tool named "${name}".`);
    if (!spend(budget, 'toolCalls')) return refused('agent_budget', `${name} was not called: the run has used all its tool calls.`);
    const named = { target: target.tool.displayName };
    try {
      const caller = { kind: 'script' as const, path, ...(context.manual ? { manual: true } : {}) };
      const result = await deps.invoker().invoke(target, { args }, { caller, signal: context.signal, agentPath: path, budget, ...lineageFlags(context) });
      return { ...(result.ok ? { ok: true as const, value: result.value } : refused(result.error.code, result.error.message)), ...named };
    } catch (error) {
      // Refused before it ran (switched off, denied, arguments that do not fit): as data for the script.
      if (error instanceof ToolbeltError) return { ...refused(error.code, error.message), ...named };
      throw error;
    }
  }
}

/**
 * The enabled tool a script names: its slug when one bundle that is on has it
 * (the latest version), or `bundle-slug/slug`; 'ambiguous' when several do.
 */
export function findToolByName(store: ToolStore, name: string): ToolRecord | undefined | 'ambiguous' {
  const [bundleSlug, slug] = name.includes('/') ? name.split('/', 2) : [undefined, name];
  const found: ToolRecord[] = [];
  for (const bundle of store.allBundles()) {
    if (bundle.kind !== 'valid' || !store.isBundleEnabled(bundle) || (bundleSlug !== undefined && bundle.bundle.slug !== bundleSlug)) continue;
    const latest = store.versionsOf(bundle.bundleID, slug).at(-1);
    if (latest && store.isToolEnabled(latest)) found.push(latest);
  }
  return found.length > 1 ? 'ambiguous' : found[0];
}

import { AGENT_MAX_DEPTH } from '../../shared/schemas/agent.js';

/**
 * What one run (a chat's call, a tester's run, an MCP client's call) may
 * spend in all, across the agents it nests: model requests and tool calls.
 * Counted down as agents work; shared by reference by every call inside it.
 */
export interface RunBudget {
  modelRequests: number;
  toolCalls: number;
}

export const RUN_BUDGET: Readonly<RunBudget> = { modelRequests: 200, toolCalls: 1_000 };

export function freshBudget(): RunBudget {
  return { ...RUN_BUDGET };
}

/**
 * Takes one of `what` from the budget; false when none is left. A run that
 * ends in a loop (an agent asking itself through an MCP server that is
 * Toolbelt again) stops here instead of running up the person's bill.
 */
export function spend(budget: RunBudget, what: keyof RunBudget): boolean {
  if (budget[what] <= 0) return false;
  budget[what]--;
  return true;
}

/**
 * The name under which a call's lineage crosses Toolbelt's own MCP hop (a tool
 * of an MCP server that is Toolbelt, sharing an agent): how many agents deep
 * it is and what it may still spend. Names of the agents do not leave.
 */
export const LINEAGE_META_KEY = 'dev.toolbelt/lineage';

export interface Lineage {
  depth: number;
  budget: RunBudget;
}

export function lineageMeta(lineage: Lineage): Record<string, unknown> {
  return { [LINEAGE_META_KEY]: { depth: lineage.depth, modelRequests: lineage.budget.modelRequests, toolCalls: lineage.budget.toolCalls } };
}

/** The lineage a client's call carries, checked and capped (a client may only ask for less); null when it carries none. */
export function readLineage(meta: Record<string, unknown> | undefined): Lineage | null {
  const raw = meta?.[LINEAGE_META_KEY];
  if (!raw || typeof raw !== 'object') return null;
  const { depth, modelRequests, toolCalls } = raw as Record<string, unknown>;
  const count = (value: unknown, most: number) => (typeof value === 'number' && Number.isInteger(value) && value >= 0 ? Math.min(value, most) : most);
  return {
    // Only Toolbelt sends this, and only from inside an agent: a depth it cannot read counts as none.
    depth: typeof depth === 'number' && Number.isInteger(depth) && depth >= 0 ? Math.min(depth, AGENT_MAX_DEPTH + 1) : 0,
    budget: { modelRequests: count(modelRequests, RUN_BUDGET.modelRequests), toolCalls: count(toolCalls, RUN_BUDGET.toolCalls) },
  };
}

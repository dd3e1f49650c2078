import type { AgentStep } from '../../shared/schemas/agent-step.js';
import type { Chat, ToolCall } from '../../shared/schemas/chat.js';

/** Steps kept per agent call (the result's schema holds 200), and of a nested agent's, inside a step. */
const MAX_STEPS = 200;
const MAX_NESTED_STEPS = 20;

const cut = (text: string, limit: number) => (text.length > limit ? `${text.slice(0, limit)}…` : text);

/** A nested agent's steps as kept inside one of ours: the first few, without their own nested steps. */
function nestedSteps(steps: AgentStep[] | undefined): { steps?: AgentStep[] } {
  if (!steps?.length) return {};
  return { steps: steps.slice(0, MAX_NESTED_STEPS).map(({ steps: _deeper, ...step }) => step) };
}

function callStep(turn: number, call: ToolCall): AgentStep {
  const result = call.result;
  const summary = !result
    ? `not run (${call.status})`
    : result.ok
      ? typeof result.value === 'string'
        ? result.value
        : (JSON.stringify(result.value) ?? 'null')
      : `${result.error.code}: ${result.error.message}`;
  return {
    turn,
    kind: 'call',
    name: call.name,
    ...(call.tool ? { tool: call.tool.displayName } : {}),
    args: call.args,
    ok: result?.ok === true,
    summary: cut(summary, 500),
    durationMs: result?.durationMs ?? 0,
    ...nestedSteps(result?.steps),
  };
}

/** What an agent said and called, turn by turn, as its result's steps (the first 200). */
export function stepsOf(chat: Chat): AgentStep[] {
  const steps: AgentStep[] = [];
  let turn = 0;
  for (const message of chat.messages) {
    if (message.role !== 'assistant') continue;
    turn++;
    if (message.content.trim()) steps.push({ turn, kind: 'text', text: cut(message.content, 2_000) });
    for (const call of message.toolCalls) steps.push(callStep(turn, call));
  }
  if (steps.length <= MAX_STEPS) return steps;
  return [...steps.slice(0, MAX_STEPS - 1), { turn: steps[MAX_STEPS - 1]!.turn, kind: 'text', text: `Later steps are not kept (${MAX_STEPS} at most).` }];
}

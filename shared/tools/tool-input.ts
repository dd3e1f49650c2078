import type { ToolInput, ToolView } from '../schemas/tool.js';

/** What a tool's view adds to its file: worked out by the core on each read, never written. */
const VIEW_ONLY = ['status', 'usage', 'readOnly', 'available', 'unavailableReason', 'blockedReason', 'versions'] as const;

/** A tool as `tools.put` takes it again (to undo its deletion, or to copy it): its file, less what the view adds. */
export function toolInputOf(view: ToolView): ToolInput {
  const input: Record<string, unknown> = { ...view };
  for (const key of VIEW_ONLY) delete input[key];
  return input as ToolInput;
}

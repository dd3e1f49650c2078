import type { ToolInput } from '../../shared/schemas/tool.js';

/**
 * Tools that name tools of their own bundle by its ID (a recipe's steps, an
 * agent's tools) named the bundle they were exported from: imported as a new
 * bundle, those names move to the new ID, so the recipe calls its own
 * bundle's tools, not the original's (which may not be here at all). Tools
 * of other bundles keep their IDs.
 */
export function rebaseOwnBundle(tools: ToolInput[], from: string | undefined, to: string): ToolInput[] {
  if (!from || from === to) return tools;
  const moved = <T extends { bundleID: string }>(ref: T): T => (ref.bundleID === from ? { ...ref, bundleID: to } : ref);
  return tools.map((tool) => {
    const impl = tool.impl as Record<string, unknown>;
    if (tool.type === 'recipe' && Array.isArray(impl.steps)) {
      return { ...tool, impl: { ...impl, steps: impl.steps.map((step: { tool?: { bundleID: string } }) => (step?.tool && typeof step.tool.bundleID === 'string' ? { ...step, tool: moved(step.tool) } : step)) } };
    }
    if (tool.type === 'agent' && Array.isArray(impl.tools)) {
      return { ...tool, impl: { ...impl, tools: impl.tools.map((entry: { bundleID?: unknown }) => (entry && typeof entry.bundleID === 'string' ? moved(entry as { bundleID: string }) : entry)) } };
    }
    return tool;
  });
}

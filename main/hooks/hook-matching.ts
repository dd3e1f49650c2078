import type { ToolFile } from '../../shared/schemas/tool.js';
import { compileLinear } from '../common/linear-regex.js';
import { matchesAll } from '../common/hook-checks.js';

/**
 * The names a hook's matcher is tried on: what Claude Code and VS Code call the tool (`mcp__<server>__<tool>` for an
 * MCP server's), its slug, and `<bundle slug>/<slug>`. The first is the `tool_name` the hook reads.
 */
export function toolNames(tool: ToolFile, bundleSlug: string | undefined): string[] {
  const own = tool.type === 'mcp' ? [`mcp__${tool.impl.server}__${tool.impl.tool}`] : [];
  return [...own, tool.slug, ...(bundleSlug ? [`${bundleSlug}/${tool.slug}`] : [])];
}

/**
 * Whether a matcher takes one of the tool's names: RE2 (linear time: a hook file cannot stall a call with a
 * backtracking pattern) over the whole name, compiled once (the engine keeps it).
 */
export function matcherTakes(matcher: string | undefined, names: readonly string[]): boolean {
  if (matchesAll(matcher)) return true;
  const regex = compileLinear(`^(?:${matcher})$`);
  return names.some((name) => regex.test(name));
}

import type { ToolFile } from '../../shared/schemas/tool.js';
import type { LocalFunctionRegistry } from './local/registry.js';
import type { RunnerAvailability } from './resolver.js';

/**
 * Whether the runner for a tool's kind can take it at all: a local tool needs
 * its function in this build; an HTTP tool can always be tried (its host and
 * secrets are checked per call, with the reason in the result).
 */
export function runnerAvailability(registry: LocalFunctionRegistry): RunnerAvailability {
  return (tool: ToolFile) =>
    tool.type === 'local' && !registry.has(tool.impl.func) ? `the local function "${tool.impl.func}" is not part of this version of Toolbelt` : null;
}

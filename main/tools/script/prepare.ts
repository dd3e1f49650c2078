import { ToolbeltError } from '../../../shared/errors.js';
import type { ToolInput, ToolPutInput } from '../../../shared/schemas/tool.js';
import type { ScriptImpl } from '../../../shared/schemas/script-impl.js';
import type { ReadScriptFn } from '../../script-sandbox/signature-reader.js';

/**
 * A script tool's definition completed from its function before it is
 * written: an argSchema left empty (no properties) is the one its signature
 * gives, and so are an empty description and a missing outputSchema; a
 * schema written by hand must name the function's parameters, or the write
 * is refused saying which differ (a mismatch is a problem, never overridden
 * in silence). A script that does not parse, or has no default export
 * function, is refused with its line. Only a script tool may leave argSchema
 * out; any other is refused saying so.
 */
export async function prepareScriptTool(tool: ToolPutInput, readScript: ReadScriptFn): Promise<ToolInput> {
  const impl = tool.impl as Partial<ScriptImpl>;
  if (tool.type !== 'script' || typeof impl.source !== 'string' || (impl.language !== 'typescript' && impl.language !== 'javascript')) return withArgSchema(tool);
  const read = await readScript(impl.source, impl.language);
  if (read.problems.length > 0) {
    const [first] = read.problems;
    throw new ToolbeltError('invalid_params', `The script cannot be used: line ${first!.line}: ${first!.message}`, {
      issues: read.problems.map((problem) => ({ path: '/impl/source', message: `line ${problem.line}: ${problem.message}` })),
    });
  }
  const written = (tool.argSchema as { properties?: unknown } | undefined)?.properties;
  const hasOwn = written && typeof written === 'object' && Object.keys(written).length > 0;
  if (hasOwn) {
    const names = Object.keys(written);
    const missing = read.parameters.filter((name) => !names.includes(name));
    const extra = names.filter((name) => !read.parameters.includes(name));
    if (missing.length || extra.length) {
      const differences = [missing.length ? `missing ${missing.join(', ')}` : '', extra.length ? `not parameters: ${extra.join(', ')}` : ''].filter(Boolean).join('; ');
      throw new ToolbeltError(
        'invalid_params',
        `argSchema does not match the function's parameters (${read.parameters.join(', ') || 'none'}): ${differences}. Leave argSchema empty to take the function's.`,
        { issues: [{ path: '/argSchema/properties', message: `must name the function's parameters (${differences}); leave argSchema empty to take the function's` }] },
      );
    }
  }
  return {
    ...tool,
    argSchema: hasOwn && tool.argSchema ? tool.argSchema : read.argSchema,
    ...(tool.description?.trim() ? {} : read.description ? { description: read.description } : {}),
    ...(tool.outputSchema === undefined && read.outputSchema ? { outputSchema: read.outputSchema } : {}),
  };
}

/** A definition that must bring its own argSchema (only a readable script's is derived). */
function withArgSchema(tool: ToolPutInput): ToolInput {
  if (tool.argSchema) return { ...tool, argSchema: tool.argSchema };
  const why = tool.type === 'script' ? 'a script tool without readable source needs one' : `a tool of type "${tool.type}" needs one (only a script tool's is read from its function)`;
  throw new ToolbeltError('invalid_params', `argSchema is missing: ${why}.`, { issues: [{ path: '/argSchema', message: `is required: ${why}` }] });
}

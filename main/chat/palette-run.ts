import { ToolbeltError } from '../../shared/errors.js';
import type { Chat, ToolCall } from '../../shared/schemas/chat.js';
import { syntheticCallId } from '../providers/transcript.js';
import { providerSafeName, toolKey, type ExposedTool, type ToolExposure } from '../tools/exposure.js';
import { chooseDiscovery } from '../tools/discovery.js';
import type { Invoker } from '../tools/invoker.js';
import { requireReady, type ToolResolver } from '../tools/resolver.js';
import { classifyCall } from '../loop/tool-calls.js';

/**
 * The call a tool run from the "+" palette becomes: the one tool exposed
 * under its usual name with the chat's settings for it, its arguments
 * checked, and decided as the person's own call (never put to them for
 * approval). Arguments that cannot be used are refused before the chat
 * changes at all.
 */
export async function paletteCall(
  deps: { resolver: ToolResolver; invoker: Invoker },
  chat: Chat,
  ref: { bundleID: string; slug: string; version: string },
  args: Record<string, unknown>,
): Promise<ToolCall> {
  const { record, bundle } = requireReady(await deps.resolver.resolve(ref));
  const name = providerSafeName(ref);
  const selection = chat.tools.selected.find((entry) => toolKey(entry) === toolKey(ref)) ?? { ...ref };
  const exposed: ExposedTool = {
    name,
    selection,
    record,
    bundleName: bundle.bundle.displayName,
    definition: { name, description: record.tool.description, parameters: record.tool.argSchema },
  };
  const exposure: ToolExposure = { byName: new Map([[name, exposed]]), definitions: [], deferred: new Map(), withheld: new Map(), denied: new Map(), discovery: chooseDiscovery('all', [], null) };
  const call = await classifyCall({ id: `run_${syntheticCallId()}`, name, args }, exposed, exposure, deps.invoker, { kind: 'person' });
  if (call.status === 'failed' && call.result && !call.result.ok) {
    const { code, message, issues } = call.result.error;
    throw new ToolbeltError(code === 'invalid_args' ? 'invalid_args' : 'invalid_params', message, issues ? { issues } : undefined);
  }
  return call;
}

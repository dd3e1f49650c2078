import type { Handlers } from '../api/dispatcher.js';
import { NOT_CANCELLABLE } from '../common/signals.js';
import type { SecretStore } from '../secrets/secret-store.js';
import type { SettingsStore } from '../settings/settings-store.js';
import type { ToolStore } from '../store/tool-store.js';
import type { Invoker } from './invoker.js';
import { requireReady, type ToolResolver } from './resolver.js';

/** tools.invoke, settings and secrets: what running tools depends on. */
export function executionHandlers(
  store: ToolStore,
  invoker: Invoker,
  resolver: ToolResolver,
  settings: SettingsStore,
  secrets: SecretStore,
): Pick<Handlers, 'tools.invoke' | 'tools.try' | 'tools.checkArgs' | 'settings.get' | 'settings.patch' | 'secrets.list' | 'secrets.put' | 'secrets.delete'> {
  return {
    'tools.invoke': async ({ bundleID, toolSlug, version, args, trace, timeoutMs }, context) => {
      const record = await store.requireTool(bundleID, toolSlug, version);
      return invoker.invoke(record, { args: args ?? {}, trace, timeoutMs }, { signal: context.signal ?? NOT_CANCELLABLE });
    },
    'tools.try': async ({ bundleID, tool, args, trace, timeoutMs }, context) => {
      const record = await store.draftRecord(bundleID, tool);
      return invoker.tryDraft(record, { args: args ?? {}, trace, timeoutMs }, { signal: context.signal ?? NOT_CANCELLABLE });
    },
    'tools.checkArgs': async ({ bundleID, toolSlug, version, args }) => {
      // Arguments are checked for a switched-off tool too (an approval being edited, say), never for one that cannot run.
      const { record } = requireReady(resolver.check(await store.requireTool(bundleID, toolSlug, version), { ignoreSwitches: true }));
      return { issues: invoker.checkArgs(record.tool, args) };
    },
    'settings.get': () => {
      const problem = settings.problem();
      return { ...settings.get(), ...(problem ? { problem } : {}) };
    },
    'settings.patch': (patch) => settings.patch(patch),
    'secrets.list': async () => ({
      storage: { osProtected: secrets.cipher.isOsProtected, description: secrets.cipher.description },
      secrets: await secrets.list(),
    }),
    'secrets.put': ({ name, value }) => secrets.put(name, value),
    'secrets.delete': async ({ name }) => {
      await secrets.delete(name);
      return null;
    },
  };
}

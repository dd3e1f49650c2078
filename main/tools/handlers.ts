import { refuseBadHooks } from '../common/hook-checks.js';
import { ToolbeltError } from '../../shared/errors.js';
import type { Handlers } from '../api/dispatcher.js';
import type { EventBus } from '../api/event-bus.js';
import { NOT_CANCELLABLE } from '../common/signals.js';
import { PERSON } from '../consent/consent.js';
import type { SecretStore } from '../secrets/secret-store.js';
import type { SettingsStore } from '../settings/settings-store.js';
import type { ToolStore } from '../store/tool-store.js';
import type { Invoker } from './invoker.js';
import type { TesterBooks } from '../tester/tester-book.js';
import { requireReady, type ToolResolver } from './resolver.js';

/** tools.invoke, settings and secrets: what running tools depends on. */
export function executionHandlers(
  store: ToolStore,
  invoker: Invoker,
  resolver: ToolResolver,
  settings: SettingsStore,
  secrets: SecretStore,
  testerBooks: TesterBooks,
  events: Pick<EventBus, 'publish'>,
): Pick<
  Handlers,
  'tools.invoke' | 'tools.try' | 'tools.checkArgs' | 'settings.get' | 'settings.patch' | 'secrets.list' | 'secrets.put' | 'secrets.delete' | 'tester.book' | 'tester.saveExample' | 'tester.deleteExample'
> {
  // A run the tester watches says how far it has got as events for its progressId.
  const reporter = (progressId: string | undefined) =>
    progressId ? { onProgress: (progress: { progress: number; total?: number; message?: string }) => events.publish({ type: 'tools.progress', progressId, ...progress }) } : {};
  return {
    'tools.invoke': async ({ bundleID, toolSlug, version, args, trace, timeoutMs, keepInHistory, resume, progressId }, context) => {
      const record = await store.requireTool(bundleID, toolSlug, version);
      const result = await invoker.invoke(record, { args: args ?? {}, trace, timeoutMs, ...(resume ? { resume } : {}) }, { caller: PERSON, signal: context.signal ?? NOT_CANCELLABLE, ...reporter(progressId) });
      if (!keepInHistory) return result;
      // The run happened either way: a history that cannot be written is said beside its result, never instead of it.
      return testerBooks.record({ bundleID, slug: toolSlug }, version, args ?? {}, result).then(
        () => result,
        (error: unknown) => ({ ...result, notKept: error instanceof ToolbeltError ? error.message : 'The run could not be kept in the history.' }),
      );
    },
    'tester.book': ({ bundleID, toolSlug }) => testerBooks.read({ bundleID, slug: toolSlug }),
    'tester.saveExample': ({ bundleID, toolSlug, name, args }) => testerBooks.saveExample({ bundleID, slug: toolSlug }, name, args),
    'tester.deleteExample': ({ bundleID, toolSlug, name }) => testerBooks.deleteExample({ bundleID, slug: toolSlug }, name),
    'tools.try': async ({ bundleID, tool, args, trace, timeoutMs, resume, progressId }, context) => {
      const record = await store.drafts.record(bundleID, tool);
      return invoker.tryDraft(record, { args: args ?? {}, trace, timeoutMs, ...(resume ? { resume } : {}) }, { caller: PERSON, signal: context.signal ?? NOT_CANCELLABLE, ...reporter(progressId) });
    },
    'tools.checkArgs': async ({ bundleID, toolSlug, version, args }) => {
      // Arguments are checked for a switched-off tool too (an approval being edited, say), never for one that cannot run.
      const { record } = requireReady(resolver.check(await store.requireTool(bundleID, toolSlug, version), { ignoreSwitches: true }));
      const issues = invoker.checkArgs(record.tool, args);
      if (issues.length > 0) return { issues };
      // What an approval shows: the request these arguments make. A request that cannot be built yet (a secret not set) is shown when the call runs.
      const preview = await invoker.preview(record.tool, args).catch(() => null);
      return { issues, ...(preview ? { preview } : {}) };
    },
    'settings.get': () => {
      const problem = settings.problem();
      return { ...settings.get(), ...(problem ? { problem } : {}) };
    },
    'settings.patch': (patch) => {
      if (patch.hooks) refuseBadHooks(patch.hooks);
      return settings.patch(patch);
    },
    'secrets.list': async () => ({
      storage: {
        osProtected: secrets.cipher.isOsProtected,
        description: secrets.cipher.description,
        kind: secrets.cipher.kind,
        ...(secrets.cipher.where ? { where: secrets.cipher.where } : {}),
      },
      secrets: await secrets.list(),
    }),
    'secrets.put': ({ name, value }) => secrets.put(name, value),
    'secrets.delete': async ({ name }) => {
      await secrets.delete(name);
      return null;
    },
  };
}

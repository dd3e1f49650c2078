import type { ToolFile } from '../../../shared/schemas/tool.js';
import type { Clock } from '../../common/clock.js';
import type { Logger } from '../../log.js';
import type { SecretStore } from '../../secrets/secret-store.js';
import type { SettingsStore } from '../../settings/settings-store.js';
import { InvokeFailure } from '../invoke-error.js';
import { NO_SECRETS } from '../../common/redact.js';
import type { ToolRunner } from '../runners.js';
import type { LocalFunctionRegistry } from './registry.js';
import { runLocal } from './run-local.js';

const DEFAULT_TIMEOUT_MS = 15_000;

/** Local tools: TypeScript functions shipped with the app, found by name. */
export function localRunner(deps: { registry: LocalFunctionRegistry; secrets: SecretStore; settings: SettingsStore; clock: Clock; log: Logger }): ToolRunner<Extract<ToolFile, { type: 'local' }>> {
  const now = () => deps.clock.now();
  return {
    availability: (tool) => (deps.registry.has(tool.impl.func) ? null : `the local function "${tool.impl.func}" is not part of this version of Toolbelt`),
    preview: async () => null,
    question: (tool, args) => deps.registry.get(tool.impl.func)?.question?.(args) ?? null,
    logLevel: () => 'info',
    async run(tool, args, context) {
      try {
        const outcome = await runLocal(tool, args, {
          registry: deps.registry,
          signal: context.signal,
          timeoutMs: context.timeoutMs ?? DEFAULT_TIMEOUT_MS,
          log: deps.log,
          now,
          secrets: deps.secrets,
          readableFolders: deps.settings.get().readableFolders,
          askUser: context.askUser,
          searchTools: context.searchTools,
        });
        return { value: outcome.value, redactor: outcome.redactor, attempts: 1 };
      } catch (error) {
        if (!(error instanceof InvokeFailure)) throw error;
        return { failure: error, redactor: NO_SECRETS, attempts: 1 };
      }
    },
  };
}

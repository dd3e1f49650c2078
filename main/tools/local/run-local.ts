import type { ToolFile } from '../../../shared/schemas/tool.js';
import type { Logger } from '../../log.js';
import type { SecretStore } from '../../secrets/secret-store.js';
import { deadline } from '../abort.js';
import { InvokeFailure } from '../invoke-error.js';
import { Redactor } from '../../common/redact.js';
import type { LocalFunctionContext, LocalFunctionRegistry } from './registry.js';

export interface LocalRunOptions {
  registry: LocalFunctionRegistry;
  signal: AbortSignal;
  timeoutMs: number;
  log: Logger;
  now: () => Date;
  secrets: SecretStore;
  readableFolders: readonly string[];
  askUser?: LocalFunctionContext['askUser'];
  searchTools?: LocalFunctionContext['searchTools'];
}

/**
 * Runs a local function with a deadline: a function that never settles is
 * cut off at its timeout, a cancelled call stops waiting at once, and a
 * thrown error becomes `local_error` with its message.
 */
export async function runLocal(
  tool: Extract<ToolFile, { type: 'local' }>,
  args: Record<string, unknown>,
  options: LocalRunOptions,
): Promise<{ value: unknown; redactor: Redactor }> {
  const fn = options.registry.get(tool.impl.func);
  if (!fn) throw new InvokeFailure('local_error', `The local function "${tool.impl.func}" is not part of this version of Toolbelt.`);
  const usedSecrets: string[] = [];
  // Settles when the deadline passes or the caller cancels, whichever is first.
  let stop: (failure: InvokeFailure) => void = () => {};
  const stopped = new Promise<never>((_, reject) => (stop = reject));
  stopped.catch(() => {});
  const limit = deadline(options.signal, options.timeoutMs, (timedOut) =>
    stop(
      timedOut
        ? new InvokeFailure('timeout', `${tool.displayName} did not finish within ${options.timeoutMs} ms and was stopped.`)
        : new InvokeFailure('cancelled', `${tool.displayName} was cancelled.`),
    ),
  );
  const context: LocalFunctionContext = {
    get signal() {
      return limit.signal;
    },
    log: options.log,
    now: options.now,
    readableFolders: options.readableFolders,
    secret: async (name) => {
      const value = await options.secrets.resolve(name);
      if (value !== null) usedSecrets.push(value);
      return value;
    },
    ...(options.askUser ? { askUser: options.askUser } : {}),
    ...(options.searchTools ? { searchTools: options.searchTools } : {}),
  };
  try {
    const value = await Promise.race([Promise.resolve().then(() => fn(args, context)), stopped]);
    return { value, redactor: new Redactor(usedSecrets) };
  } catch (error) {
    if (error instanceof InvokeFailure) throw error;
    const message = error instanceof Error ? error.message : String(error);
    throw new InvokeFailure('local_error', `${tool.displayName} failed: ${new Redactor(usedSecrets).text(message)}`);
  } finally {
    limit.dispose();
  }
}

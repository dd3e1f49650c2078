import type { ToolFile } from '../../../shared/schemas/tool.js';
import type { Logger } from '../../log.js';
import type { SecretStore } from '../../secrets/secret-store.js';
import { deadline, type Deadline } from '../abort.js';
import { InvokeFailure } from '../invoke-error.js';
import { NO_SECRETS, Redactor } from '../../common/redact.js';
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

/** The deadline of a call that waits, and what settles when it passes or the caller cancels. */
interface Watch {
  limit: Deadline;
  stopped: Promise<never>;
}

const isPromiseLike = (value: unknown): value is PromiseLike<unknown> =>
  typeof value === 'object' && value !== null && typeof (value as { then?: unknown }).then === 'function';

/**
 * Runs a local function with a deadline: a function that never settles is
 * cut off at its timeout, a cancelled call stops waiting at once, and a
 * thrown error becomes `local_error` with its message.
 *
 * The deadline (a timer, a listener on the caller's signal, an
 * AbortController) is made only when the function asks for its signal or
 * answers with a promise: most of the core's functions answer at once, and
 * no deadline can stop code that never yields anyway. Making it for every
 * call was a third of a local call's cost (npm run bench, invoke).
 */
export async function runLocal(
  tool: Extract<ToolFile, { type: 'local' }>,
  args: Record<string, unknown>,
  options: LocalRunOptions,
): Promise<{ value: unknown; redactor: Redactor }> {
  const fn = options.registry.get(tool.impl.func);
  if (!fn) throw new InvokeFailure('local_error', `The local function "${tool.impl.func}" is not part of this version of Toolbelt.`);
  const stoppedBecause = (timedOut: boolean) =>
    timedOut
      ? new InvokeFailure('timeout', `${tool.displayName} did not finish within ${options.timeoutMs} ms and was stopped.`)
      : new InvokeFailure('cancelled', `${tool.displayName} was cancelled.`);
  if (options.signal.aborted) throw stoppedBecause(false);
  let watch: Watch | null = null;
  const watched = (): Watch => {
    if (watch) return watch;
    let stop: (failure: InvokeFailure) => void = () => {};
    const stopped = new Promise<never>((_, reject) => (stop = reject));
    stopped.catch(() => {});
    return (watch = { stopped, limit: deadline(options.signal, options.timeoutMs, (timedOut) => stop(stoppedBecause(timedOut))) });
  };
  const usedSecrets: string[] = [];
  const redactor = () => (usedSecrets.length === 0 ? NO_SECRETS : new Redactor(usedSecrets));
  const context: LocalFunctionContext = {
    get signal() {
      return watched().limit.signal;
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
    const answer = fn(args, context);
    const value = isPromiseLike(answer) ? await Promise.race([answer, watched().stopped]) : answer;
    return { value, redactor: redactor() };
  } catch (error) {
    if (error instanceof InvokeFailure) throw error;
    const message = error instanceof Error ? error.message : String(error);
    throw new InvokeFailure('local_error', `${tool.displayName} failed: ${redactor().text(message)}`);
  } finally {
    // `watch` is assigned inside `watched`, which TypeScript's flow analysis does not follow.
    (watch as Watch | null)?.limit.dispose();
  }
}

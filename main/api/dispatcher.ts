import type { OperationDefinition, ParamsOf, ResultOf } from '../../shared/operation.js';
import { ToolbeltError } from '../../shared/errors.js';
import { isOperationName, operations, type OperationName, type Operations } from '../../shared/operations/index.js';
import { jsonValueProblem } from '../common/json-limits.js';
import { isStorageError, storageFailure } from '../common/storage-errors.js';
import type { Logger } from '../log.js';
import type { CallRegistry } from './call-registry.js';
import { compile, createAjv, describeIssues, issuesFrom, type Validator } from '../common/validation.js';
import { forFastChecks } from '../common/schema-parts.js';

export interface CallContext {
  /** Which transport the call came through; for logs and policy, never trust. */
  transport: 'ipc' | 'http' | 'internal';
  signal?: AbortSignal;
  /** Names the call so `calls.cancel` can abort it (IPC, which cannot close a request). */
  callId?: string;
  /** A put that made something new says so; the browser host answers 201 instead of 200. */
  markCreated?: () => void;
}

export type Handler<K extends OperationName> = (
  params: ParamsOf<Operations[K]>,
  context: CallContext,
) => ResultOf<Operations[K]> | Promise<ResultOf<Operations[K]>>;

export type Handlers = { [K in OperationName]: Handler<K> };

export interface Dispatcher {
  call(name: string, params: unknown, context: CallContext): Promise<unknown>;
  definition(name: OperationName): OperationDefinition;
}

export interface CompiledOperation {
  validateParams: Validator;
  validateResult: Validator;
}

/**
 * Each operation's parameter and result checks, compiled on its first call:
 * compiling all ~160 schemas at start took ~0.6 s and left ~70 MB of garbage
 * that set the host's resident size. The dispatcher's test compiles them all,
 * so a schema strict mode refuses still fails before it ships.
 */
export function operationChecks(): (name: OperationName) => CompiledOperation {
  const ajv = createAjv();
  // A result is checked for our own bugs: the first problem is enough for the log, and stopping there is cheaper on every call.
  // Arranged so the check a result usually meets is small and fails a wrong union branch at once (see forFastChecks).
  const resultAjv = createAjv({ strict: true, allErrors: false, inlineRefs: false });
  const compiled = new Map<OperationName, CompiledOperation>();
  return (name) => {
    let checks = compiled.get(name);
    if (!checks) {
      const definition: OperationDefinition = operations[name];
      checks = { validateParams: compile(ajv, definition.params), validateResult: resultAjv.compile(forFastChecks(definition.result)) };
      compiled.set(name, checks);
    }
    return checks;
  };
}

/**
 * The one entry point to the core's services. Every call is validated
 * against the operation table before its handler runs, and every result is
 * checked before it leaves, so both transports share the same guarantees.
 */
export function createDispatcher(handlers: Handlers, log: Logger, calls?: CallRegistry): Dispatcher {
  const checksOf = operationChecks();

  async function call(name: string, params: unknown, context: CallContext): Promise<unknown> {
    if (!isOperationName(name)) {
      throw new ToolbeltError('unknown_operation', `There is no operation named "${name}".`, {
        operation: name,
      });
    }
    const { validateParams, validateResult } = checksOf(name);
    const input = params ?? {};
    const unsafe = jsonValueProblem(input, { text: true });
    if (unsafe) {
      throw new ToolbeltError('invalid_params', `Invalid parameters for ${name}: ${unsafe.path} ${unsafe.message}.`, { issues: [unsafe] });
    }
    if (!validateParams(input)) {
      const issues = issuesFrom(validateParams.errors);
      throw new ToolbeltError(
        'invalid_params',
        `Invalid parameters for ${name}: ${describeIssues(issues)}`,
        { issues },
      );
    }
    const handler = handlers[name] as (params: unknown, context: CallContext) => unknown;
    const tracked = context.callId && calls ? calls.begin(context.callId, context.signal) : null;
    let result: unknown;
    try {
      result = await handler(input, tracked ? { ...context, signal: tracked.signal } : context);
    } catch (error) {
      if (error instanceof ToolbeltError) throw error;
      log.error('operation failed', { operation: name, error: String(error) });
      // A full disk or a folder in the way is the person's to fix, not a bug: say what and how.
      if (isStorageError(error)) throw storageFailure(error, 'Toolbelt could not use its data folder');
      throw new ToolbeltError('internal', `${name} failed unexpectedly. The details are in the log.`);
    } finally {
      tracked?.end();
    }
    if (!validateResult(result)) {
      log.error('operation returned an invalid result', {
        operation: name,
        issues: issuesFrom(validateResult.errors),
      });
      throw new ToolbeltError('internal', `${name} produced an invalid result. The details are in the log.`);
    }
    return result;
  }

  return {
    call,
    definition: (name) => operations[name],
  };
}

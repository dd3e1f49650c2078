import { describe, expect, it } from 'vitest';
import type { ToolFile } from '../../../shared/schemas/tool.js';
import { silentLogger } from '../../log.js';
import type { SecretStore } from '../../secrets/secret-store.js';
import { NOT_CANCELLABLE } from '../../common/signals.js';
import { InvokeFailure } from '../invoke-error.js';
import { createLocalRegistry, type LocalFunction } from './registry.js';
import { runLocal } from './run-local.js';

const SECRET = 'pa"ss-1234';
const secrets = { resolve: async (name: string) => (name === 'token' ? SECRET : null) } as unknown as SecretStore;

const tool = { type: 'local', displayName: 'Probe', impl: { func: 'probe' } } as Extract<ToolFile, { type: 'local' }>;

function run(fn: LocalFunction, options: { signal?: AbortSignal; timeoutMs?: number } = {}) {
  return runLocal(tool, {}, {
    registry: createLocalRegistry({ probe: fn }),
    signal: options.signal ?? NOT_CANCELLABLE,
    timeoutMs: options.timeoutMs ?? 15_000,
    log: silentLogger,
    now: () => new Date(),
    secrets,
    readableFolders: [],
  });
}

async function failure(running: Promise<unknown>): Promise<InvokeFailure> {
  const error = await running.then(
    () => null,
    (caught: unknown) => caught,
  );
  if (!(error instanceof InvokeFailure)) throw new Error(`expected an InvokeFailure, got ${String(error)}`);
  return error;
}

const timers = () => process.getActiveResourcesInfo().filter((kind) => kind === 'Timeout').length;

describe('a local function, run with its deadline', () => {
  it('answers at once, and leaves no timer behind whether it answers at once or later', async () => {
    const before = timers();
    expect((await run(() => ({ value: 20 }))).value).toEqual({ value: 20 });
    expect((await run(async () => 'later')).value).toBe('later');
    expect(timers()).toBe(before);
  });

  it('stops waiting for a function that never settles at its timeout, and aborts the signal it was given', async () => {
    let given: AbortSignal | undefined;
    const stopped = await failure(run((_args, context) => ((given = context.signal), new Promise(() => {})), { timeoutMs: 30 }));
    expect(stopped.code).toBe('timeout');
    expect(stopped.message).toBe('Probe did not finish within 30 ms and was stopped.');
    expect(given?.aborted).toBe(true);
  });

  it('stops waiting at once when the caller cancels, and tells the function', async () => {
    const caller = new AbortController();
    let given: AbortSignal | undefined;
    const running = run((_args, context) => {
      given = context.signal;
      queueMicrotask(() => caller.abort());
      return new Promise(() => {});
    }, { signal: caller.signal });
    expect((await failure(running)).code).toBe('cancelled');
    expect(given?.aborted).toBe(true);
  });

  it('does not run a call its caller cancelled before it began', async () => {
    const caller = new AbortController();
    caller.abort();
    let ran = false;
    expect((await failure(run(() => (ran = true), { signal: caller.signal }))).code).toBe('cancelled');
    expect(ran).toBe(false);
  });

  it('reports a thrown error as local_error with the secrets it read masked, whether thrown at once or later', async () => {
    const reading = async (_args: Record<string, unknown>, context: Parameters<LocalFunction>[1]) => {
      throw new Error(`refused ${await context.secret('token')}`);
    };
    const later = await failure(run(reading));
    expect(later.code).toBe('local_error');
    expect(later.message).toBe('Probe failed: refused •••');
    const atOnce = await failure(run(() => {
      throw new Error('no such thing');
    }));
    expect(atOnce.message).toBe('Probe failed: no such thing');
  });
});

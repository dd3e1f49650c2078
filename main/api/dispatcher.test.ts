import { describe, expect, it, vi } from 'vitest';
import { ToolbeltError } from '../../shared/errors.js';
import { silentLogger } from '../log.js';
import { operations } from '../../shared/operations/index.js';
import { createDispatcher, operationChecks, type Handlers } from './dispatcher.js';

const validInfo = {
  name: 'Toolbelt',
  version: '1.2.3',
  dataDir: '/data',
  hostKind: 'browser' as const,
  platform: 'linux',
  runtime: { node: '20.20.2' },
};

// Only the app.* handlers are exercised; the dispatcher never reaches the others.
function handlers(overrides: Partial<Handlers> = {}): Handlers {
  return {
    'app.info': vi.fn(() => validInfo),
    'app.health': vi.fn(() => ({ status: 'ok' as const, startedAt: '2026-01-01T00:00:00.000Z', uptimeMs: 5 })),
    ...overrides,
  } as Handlers;
}

async function rejection(promise: Promise<unknown>): Promise<ToolbeltError> {
  const error: unknown = await promise.then(
    () => {
      throw new Error('expected the call to fail');
    },
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(ToolbeltError);
  return error as ToolbeltError;
}

describe('dispatcher', () => {
  it('compiles every operation\'s checks under strict mode (they are compiled on first call in the app)', () => {
    const checksOf = operationChecks();
    const names = Object.keys(operations) as (keyof typeof operations)[];
    expect(names.length).toBeGreaterThan(50);
    for (const name of names) expect(() => checksOf(name), name).not.toThrow();
  });


  it('answers a valid call with the service result', async () => {
    const dispatcher = createDispatcher(handlers(), silentLogger);
    await expect(dispatcher.call('app.info', {}, { transport: 'internal' })).resolves.toEqual(validInfo);
  });

  it('rejects invalid params with invalid_params before the service runs', async () => {
    const services = handlers();
    const dispatcher = createDispatcher(services, silentLogger);
    const error = await rejection(dispatcher.call('app.info', { surprise: true }, { transport: 'http' }));
    expect(error.code).toBe('invalid_params');
    expect(error.httpStatus).toBe(400);
    expect(error.details).toEqual({ issues: [{ path: '/', message: 'unknown property "surprise"' }] });
    expect(services['app.info']).not.toHaveBeenCalled();
  });

  it('rejects params that are not an object', async () => {
    const services = handlers();
    const dispatcher = createDispatcher(services, silentLogger);
    const error = await rejection(dispatcher.call('app.health', 'hello', { transport: 'ipc' }));
    expect(error.code).toBe('invalid_params');
    expect(services['app.health']).not.toHaveBeenCalled();
  });

  it('names an unknown operation clearly', async () => {
    const dispatcher = createDispatcher(handlers(), silentLogger);
    const error = await rejection(dispatcher.call('tools.nuke', {}, { transport: 'ipc' }));
    expect(error.code).toBe('unknown_operation');
    expect(error.message).toContain('tools.nuke');
  });

  it('does not treat inherited object keys as operations', async () => {
    const dispatcher = createDispatcher(handlers(), silentLogger);
    expect((await rejection(dispatcher.call('constructor', {}, { transport: 'ipc' }))).code).toBe('unknown_operation');
  });

  it('keeps the code, message and details of a service error', async () => {
    const dispatcher = createDispatcher(
      handlers({
        'app.info': () => {
          throw new ToolbeltError('conflict', 'Already there.', { existing: 'x' });
        },
      }),
      silentLogger,
    );
    const error = await rejection(dispatcher.call('app.info', {}, { transport: 'http' }));
    expect(error.toBody()).toEqual({ error: { code: 'conflict', message: 'Already there.', details: { existing: 'x' } } });
  });

  it('hides the message of an unexpected error behind internal', async () => {
    const log = { ...silentLogger, error: vi.fn() };
    const dispatcher = createDispatcher(
      handlers({
        'app.info': () => {
          throw new Error('secret token abc123 leaked in a stack');
        },
      }),
      log,
    );
    const error = await rejection(dispatcher.call('app.info', {}, { transport: 'http' }));
    expect(error.code).toBe('internal');
    expect(error.message).not.toContain('abc123');
    expect(log.error).toHaveBeenCalledOnce();
  });

  it('refuses to return a result that breaks the result schema', async () => {
    const dispatcher = createDispatcher(
      handlers({ 'app.info': () => ({ ...validInfo, hostKind: 'toaster' }) as never }),
      silentLogger,
    );
    expect((await rejection(dispatcher.call('app.info', {}, { transport: 'ipc' }))).code).toBe('internal');
  });
});

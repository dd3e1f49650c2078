import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { Static } from '@sinclair/typebox';
import type { HostKindSchema } from '../shared/operations/app.js';
import { createDispatcher, type Dispatcher, type Handlers } from './api/dispatcher.js';
import { createEventBus, type EventBus } from './api/event-bus.js';
import type { Logger } from './log.js';
import type { Cipher } from './secrets/cipher.js';

export type HostKind = Static<typeof HostKindSchema>;

export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

export interface CoreOptions {
  dataDir: string;
  hostKind: HostKind;
  app: { name: string; version: string };
  cipher: Cipher;
  log: Logger;
  clock?: Clock;
  fetch?: typeof globalThis.fetch;
  /** Versions of the runtime hosting the core, shown in Settings. */
  runtime?: { electron?: string; chrome?: string };
  /** How often an idle event stream gets a heartbeat; keeps proxies and the status dot honest. */
  heartbeatMs?: number;
}

export interface Core {
  dispatcher: Dispatcher;
  events: EventBus;
  dataDir: string;
  close(): Promise<void>;
}

/**
 * Wires the services by constructor injection. Hosts (Electron, the browser
 * host, tests) differ only in what they pass here.
 */
export async function createCore(options: CoreOptions): Promise<Core> {
  const dataDir = path.resolve(options.dataDir);
  await mkdir(dataDir, { recursive: true, mode: 0o700 });
  const clock = options.clock ?? systemClock;
  const log = options.log;
  const startedAt = clock.now();
  const events = createEventBus((error) => log.warn('event listener failed', { error: String(error) }));

  const handlers: Handlers = {
    'app.info': () => ({
      name: options.app.name,
      version: options.app.version,
      dataDir,
      hostKind: options.hostKind,
      platform: process.platform,
      runtime: { node: process.versions.node, ...options.runtime },
    }),
    'app.health': () => ({
      status: 'ok' as const,
      startedAt: startedAt.toISOString(),
      uptimeMs: Math.max(0, clock.now().getTime() - startedAt.getTime()),
    }),
  };

  const heartbeat = setInterval(
    () => events.publish({ type: 'app.heartbeat', at: clock.now().toISOString() }),
    options.heartbeatMs ?? 15_000,
  );
  heartbeat.unref();

  return {
    dispatcher: createDispatcher(handlers, log),
    events,
    dataDir,
    async close() {
      clearInterval(heartbeat);
    },
  };
}

import type { CallRegistry } from '../api/call-registry.js';
import type { Handlers } from '../api/dispatcher.js';
import type { Static } from '@sinclair/typebox';
import type { HostKindSchema } from '../../shared/operations/app.js';
import type { Clock } from '../common/clock.js';

/** What the host tells about itself, shown in Settings → About. */
export interface AppFacts {
  app: { name: string; version: string };
  hostKind: Static<typeof HostKindSchema>;
  runtime?: { electron?: string; chrome?: string };
  appSandboxOrigin?: string;
}

/** app.info and app.health: who is running, where its data is, is it alive. */
export function appHandlers(options: AppFacts, dataDir: string, clock: Clock, calls: CallRegistry): Pick<Handlers, 'app.info' | 'app.health' | 'calls.cancel'> {
  const startedAt = clock.now();
  return {
    'app.info': () => ({
      name: options.app.name,
      version: options.app.version,
      dataDir,
      hostKind: options.hostKind,
      platform: process.platform,
      runtime: { node: process.versions.node, ...options.runtime },
      ...(options.appSandboxOrigin ? { appSandboxOrigin: options.appSandboxOrigin } : {}),
    }),
    'calls.cancel': ({ callId }) => ({ cancelled: calls.cancel(callId) }),
    'app.health': () => ({
      status: 'ok' as const,
      startedAt: startedAt.toISOString(),
      uptimeMs: Math.max(0, clock.now().getTime() - startedAt.getTime()),
    }),
  };
}

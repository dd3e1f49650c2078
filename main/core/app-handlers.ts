import type { CallRegistry } from '../api/call-registry.js';
import type { Handlers } from '../api/dispatcher.js';
import type { Static } from '@sinclair/typebox';
import type { HostKindSchema } from '../../shared/operations/app.js';
import type { Clock } from '../common/clock.js';
import { ToolbeltError } from '../../shared/errors.js';

/** What the host tells about itself, shown in Settings → About. */
export interface AppFacts {
  app: { name: string; version: string };
  hostKind: Static<typeof HostKindSchema>;
  runtime?: { electron?: string; chrome?: string };
  appSandboxOrigin?: string;
  /** The system's picker for a folder or file (the desktop app's dialog); the browser host has none. */
  pickPath?: (kind: 'directory' | 'file', title: string | undefined) => Promise<string | null>;
}

/** app.info and app.health: who is running, where its data is, is it alive. */
export function appHandlers(options: AppFacts, dataDir: string, clock: Clock, calls: CallRegistry): Pick<Handlers, 'app.info' | 'app.health' | 'app.pickPath' | 'calls.cancel'> {
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
    'app.pickPath': async ({ kind, title }) => {
      if (!options.pickPath) throw new ToolbeltError('unavailable', 'Only the desktop app has a picker that gives a full path: type the full path here.');
      return { path: await options.pickPath(kind, title) };
    },
    'app.health': () => ({
      status: 'ok' as const,
      startedAt: startedAt.toISOString(),
      uptimeMs: Math.max(0, clock.now().getTime() - startedAt.getTime()),
    }),
  };
}

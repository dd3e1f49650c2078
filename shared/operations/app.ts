import { Type } from '@sinclair/typebox';
import { defineOperation } from '../operation.js';

export const HostKindSchema = Type.Union([Type.Literal('electron'), Type.Literal('browser')]);

export const AppInfoSchema = Type.Object(
  {
    name: Type.String(),
    version: Type.String(),
    dataDir: Type.String(),
    hostKind: HostKindSchema,
    platform: Type.String(),
    runtime: Type.Object({
      node: Type.String(),
      electron: Type.Optional(Type.String()),
      chrome: Type.Optional(Type.String()),
    }),
    /** Where MCP Apps run (a second origin); absent where the host serves none (the stdio MCP command, tests). */
    appSandboxOrigin: Type.Optional(Type.String({ pattern: '^http://127\\.0\\.0\\.1:\\d+$' })),
  },
  { $id: 'AppInfo', additionalProperties: false },
);

export const AppHealthSchema = Type.Object(
  {
    status: Type.Literal('ok'),
    startedAt: Type.String({ format: 'date-time' }),
    uptimeMs: Type.Integer({ minimum: 0 }),
  },
  { $id: 'AppHealth', additionalProperties: false },
);

const NoParams = Type.Object({}, { additionalProperties: false });

export const appInfo = defineOperation({
  name: 'app.info',
  summary: 'Name, version, data folder and host of the running core.',
  params: NoParams,
  result: AppInfoSchema,
  http: { method: 'GET', path: '/api/app/info' },
});

export const appHealth = defineOperation({
  name: 'app.health',
  summary: 'Liveness of the core; cheap enough to poll.',
  params: NoParams,
  result: AppHealthSchema,
  http: { method: 'GET', path: '/api/app/health' },
});

export const CallIdSchema = Type.String({ pattern: '^[A-Za-z0-9-]{8,64}$', description: 'An id the window gave a cancellable call' });

export const callsCancel = defineOperation({
  name: 'calls.cancel',
  summary: 'Abort a call the window named (IPC cannot close a request the way HTTP can).',
  params: Type.Object({ callId: CallIdSchema }, { additionalProperties: false }),
  result: Type.Object({ cancelled: Type.Boolean() }, { additionalProperties: false }),
  http: { method: 'POST', path: '/api/calls/:callId/cancel' },
});

export const appPickPath = defineOperation({
  name: 'app.pickPath',
  summary:
    "The system's own picker for a folder or a file, where the host has one (the desktop app): the full path chosen, or null when the person closed it. The browser host has none (unavailable): a page cannot learn a file's full path.",
  params: Type.Object(
    { kind: Type.Union([Type.Literal('directory'), Type.Literal('file')]), title: Type.Optional(Type.String({ maxLength: 200 })) },
    { additionalProperties: false },
  ),
  result: Type.Object({ path: Type.Union([Type.String(), Type.Null()]) }, { additionalProperties: false }),
  http: { method: 'POST', path: '/api/app/pick-path' },
});

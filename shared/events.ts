import { Type, type Static } from '@sinclair/typebox';

/**
 * Everything the core pushes to the renderer, as one tagged union. Electron
 * sends it with webContents.send; the browser host streams it as
 * server-sent events. Later features add members here.
 */
export const HeartbeatEventSchema = Type.Object(
  {
    type: Type.Literal('app.heartbeat'),
    at: Type.String({ format: 'date-time' }),
  },
  { additionalProperties: false },
);

/** Bundles or tools changed, through the API or on disk (an editor, `git pull`). */
export const StoreChangedEventSchema = Type.Object(
  {
    type: Type.Literal('store.changed'),
    source: Type.Union([Type.Literal('api'), Type.Literal('disk')]),
    bundleIDs: Type.Array(Type.String()),
    toolIDs: Type.Array(Type.String()),
  },
  { additionalProperties: false },
);

export const CoreEventSchema = Type.Union([HeartbeatEventSchema, StoreChangedEventSchema], { $id: 'CoreEvent' });

export type CoreEvent = Static<typeof CoreEventSchema>;
export type CoreEventType = CoreEvent['type'];

export const CORE_EVENT_TYPES: readonly CoreEventType[] = ['app.heartbeat', 'store.changed'];

export function isCoreEventType(value: unknown): value is CoreEventType {
  return typeof value === 'string' && (CORE_EVENT_TYPES as readonly string[]).includes(value);
}

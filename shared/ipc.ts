import type { ErrorBody } from './errors.js';

/** Channel names shared by preload/ and app/; nothing else uses IPC. */
export const IPC_INVOKE_CHANNEL = 'toolbelt:invoke';
export const IPC_EVENT_CHANNEL = 'toolbelt:event';

/** The ids a window may give its cancellable calls (the same rule as calls.cancel). */
export function isCallId(value: unknown): value is string {
  return typeof value === 'string' && /^[A-Za-z0-9-]{8,64}$/.test(value);
}

/**
 * ipcRenderer.invoke drops every property of a thrown Error but its message,
 * so the adapter always resolves with an envelope and the client rethrows.
 */
export type IpcEnvelope = { ok: true; result: unknown } | ({ ok: false } & ErrorBody);

/** What preload exposes on `window.toolbelt`. */
export interface ToolbeltBridge {
  /** `callId` names a call the window may cancel with `calls.cancel`. */
  invoke(operation: string, params?: unknown, callId?: string): Promise<IpcEnvelope>;
  on(eventType: string, callback: (payload: unknown) => void): () => void;
}

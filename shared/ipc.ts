import type { ErrorBody } from './errors.js';

/** Channel names shared by preload/ and app/; nothing else uses IPC. */
export const IPC_INVOKE_CHANNEL = 'toolbelt:invoke';
export const IPC_EVENT_CHANNEL = 'toolbelt:event';

/**
 * ipcRenderer.invoke drops every property of a thrown Error but its message,
 * so the adapter always resolves with an envelope and the client rethrows.
 */
export type IpcEnvelope = { ok: true; result: unknown } | ({ ok: false } & ErrorBody);

/** What preload exposes on `window.toolbelt`. */
export interface ToolbeltBridge {
  invoke(operation: string, params?: unknown): Promise<IpcEnvelope>;
  on(eventType: string, callback: (payload: unknown) => void): () => void;
}

import { contextBridge, ipcRenderer } from 'electron';
import { isCoreEventType } from '../shared/events.js';
import { IPC_EVENT_CHANNEL, IPC_INVOKE_CHANNEL, isCallId, type ToolbeltBridge } from '../shared/ipc.js';
import { isOperationName } from '../shared/operations/index.js';

/**
 * The renderer's whole view of the host: two functions. Names outside the
 * operation table and event union never reach the main process.
 */
export const bridge: ToolbeltBridge = {
  invoke(operation, params, callId) {
    if (!isOperationName(operation)) {
      return Promise.resolve({
        ok: false,
        error: { code: 'unknown_operation', message: `There is no operation named "${String(operation)}".` },
      });
    }
    return isCallId(callId)
      ? ipcRenderer.invoke(IPC_INVOKE_CHANNEL, operation, params, callId)
      : ipcRenderer.invoke(IPC_INVOKE_CHANNEL, operation, params);
  },
  on(eventType, callback) {
    if (!isCoreEventType(eventType)) throw new Error(`There is no event named "${String(eventType)}".`);
    // The IpcRendererEvent (with its sender) never reaches page code.
    const listener = (_event: unknown, payload: { type?: unknown }) => {
      if (payload?.type === eventType) callback(payload);
    };
    ipcRenderer.on(IPC_EVENT_CHANNEL, listener);
    return () => {
      ipcRenderer.removeListener(IPC_EVENT_CHANNEL, listener);
    };
  },
};

contextBridge.exposeInMainWorld('toolbelt', bridge);

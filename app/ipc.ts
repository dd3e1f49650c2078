import type { BrowserWindow, IpcMain, IpcMainInvokeEvent } from 'electron';
import { ToolbeltError } from '../shared/errors.js';
import { IPC_EVENT_CHANNEL, IPC_INVOKE_CHANNEL, isCallId, type IpcEnvelope } from '../shared/ipc.js';
import type { Core } from '../main/core/create-core.js';
import type { Logger } from '../main/log.js';
import { isTrustedSender } from './url-policy.js';

/**
 * The IPC adapter: one handler that routes by operation name to the core's
 * dispatcher (which validates), and core events pushed to the window.
 */
export function connectIpc(ipcMain: IpcMain, core: Core, window: BrowserWindow, log: Logger): () => void {
  const trusted = (event: IpcMainInvokeEvent) =>
    isTrustedSender({
      frameUrl: event.senderFrame?.url ?? null,
      isMainFrame: event.senderFrame !== null && event.senderFrame === event.sender.mainFrame,
      fromOwnWindow: event.sender === window.webContents,
    });

  ipcMain.handle(IPC_INVOKE_CHANNEL, async (event, operation: unknown, params: unknown, callId: unknown): Promise<IpcEnvelope> => {
    if (!trusted(event)) {
      log.warn('refused IPC from an untrusted frame', { url: event.senderFrame?.url });
      return { ok: false, ...new ToolbeltError('forbidden', 'This frame may not call Toolbelt.').toBody() };
    }
    try {
      const result = await core.dispatcher.call(String(operation), params, { transport: 'ipc', ...(isCallId(callId) ? { callId } : {}) });
      return { ok: true, result };
    } catch (error) {
      const failure = error instanceof ToolbeltError ? error : new ToolbeltError('internal', 'The call failed unexpectedly.');
      return { ok: false, ...failure.toBody() };
    }
  });

  const unsubscribe = core.events.subscribe((event) => {
    if (!window.isDestroyed()) window.webContents.send(IPC_EVENT_CHANNEL, event);
  });

  return () => {
    unsubscribe();
    ipcMain.removeHandler(IPC_INVOKE_CHANNEL);
  };
}

import { beforeEach, describe, expect, it, vi } from 'vitest';
import { IPC_EVENT_CHANNEL, IPC_INVOKE_CHANNEL, type ToolbeltBridge } from '../shared/ipc.js';

// Electron itself cannot load here; these stand-ins record what preload
// hands to it. Nothing of Toolbelt's own is replaced.
const exposed = new Map<string, unknown>();
const listeners = new Map<string, ((event: unknown, payload: unknown) => void)[]>();
const invoke = vi.fn((..._args: unknown[]) => Promise.resolve({ ok: true, result: 'pong' }));

vi.mock('electron', () => ({
  contextBridge: { exposeInMainWorld: (key: string, api: unknown) => exposed.set(key, api) },
  ipcRenderer: {
    invoke,
    on: (channel: string, listener: (event: unknown, payload: unknown) => void) => {
      listeners.set(channel, [...(listeners.get(channel) ?? []), listener]);
    },
    removeListener: (channel: string, listener: (event: unknown, payload: unknown) => void) => {
      listeners.set(channel, (listeners.get(channel) ?? []).filter((entry) => entry !== listener));
    },
  },
}));

let bridge: ToolbeltBridge;

beforeEach(async () => {
  exposed.clear();
  listeners.clear();
  invoke.mockClear();
  vi.resetModules();
  await import('./preload.js');
  bridge = exposed.get('toolbelt') as ToolbeltBridge;
});

describe('preload', () => {
  it('exposes exactly invoke and on, under window.toolbelt only', () => {
    expect([...exposed.keys()]).toEqual(['toolbelt']);
    expect(Object.keys(bridge).sort()).toEqual(['invoke', 'on']);
  });

  it('forwards operations from the table over the one invoke channel', async () => {
    await expect(bridge.invoke('app.info', {})).resolves.toEqual({ ok: true, result: 'pong' });
    expect(invoke).toHaveBeenCalledWith(IPC_INVOKE_CHANNEL, 'app.info', {});
  });

  it('passes a cancellable call its id, and drops an id that is not one', async () => {
    await bridge.invoke('tools.invoke', {}, 'call-0123456789');
    expect(invoke).toHaveBeenLastCalledWith(IPC_INVOKE_CHANNEL, 'tools.invoke', {}, 'call-0123456789');
    await bridge.invoke('tools.invoke', {}, '../../etc');
    expect(invoke).toHaveBeenLastCalledWith(IPC_INVOKE_CHANNEL, 'tools.invoke', {});
  });

  it('never sends names outside the operation table', async () => {
    await expect(bridge.invoke('shell.openExternal', {})).resolves.toMatchObject({
      ok: false,
      error: { code: 'unknown_operation' },
    });
    await expect(bridge.invoke('__proto__', {})).resolves.toMatchObject({ ok: false });
    expect(invoke).not.toHaveBeenCalled();
  });

  it('delivers events of the asked type without the IpcRendererEvent, and unsubscribes', () => {
    const received: unknown[][] = [];
    const off = bridge.on('app.heartbeat', (...args: unknown[]) => received.push(args));
    const fakeIpcEvent = { sender: { send: () => {} }, ports: [] };
    const emit = (payload: unknown) => listeners.get(IPC_EVENT_CHANNEL)!.forEach((listener) => listener(fakeIpcEvent, payload));

    emit({ type: 'app.heartbeat', at: '2026-01-01T00:00:00.000Z' });
    emit({ type: 'something.else' });
    expect(received).toEqual([[{ type: 'app.heartbeat', at: '2026-01-01T00:00:00.000Z' }]]);

    off();
    expect(listeners.get(IPC_EVENT_CHANNEL)).toEqual([]);
  });

  it('refuses to subscribe to events that do not exist', () => {
    expect(() => bridge.on('ipc.raw', () => {})).toThrow(/no event named/);
  });
});

import { describe, expect, it } from 'vitest';
import type { IpcEnvelope, ToolbeltBridge } from '../../shared/ipc.js';
import { createIpcTransport } from './ipc-transport.js';

/** A bridge as preload exposes it, recording calls; answers are the test's to give. */
function fakeBridge() {
  const calls: { operation: string; params: unknown; callId?: string }[] = [];
  const waiting: ((envelope: IpcEnvelope) => void)[] = [];
  const bridge: ToolbeltBridge = {
    invoke(operation, params, callId) {
      calls.push({ operation, params, ...(callId ? { callId } : {}) });
      if (operation === 'calls.cancel') return Promise.resolve({ ok: true, result: { cancelled: true } });
      return new Promise((resolve) => waiting.push(resolve));
    },
    on: () => () => {},
  };
  return { bridge, calls, waiting };
}

describe('the IPC transport', () => {
  it('names a cancellable call, and a cancel asks the core to abort that call', async () => {
    const { bridge, calls } = fakeBridge();
    const transport = createIpcTransport(bridge);
    const controller = new AbortController();
    const pending = transport.invoke('tools.invoke', { args: {} }, { signal: controller.signal });
    controller.abort();
    await expect(pending).rejects.toMatchObject({ code: 'cancelled' });
    const callId = calls[0]!.callId!;
    expect(callId).toMatch(/^[A-Za-z0-9-]{8,64}$/);
    expect(calls[1]).toEqual({ operation: 'calls.cancel', params: { callId } });
  });

  it('sends calls that cannot be cancelled without an id, and returns their results', async () => {
    const { bridge, calls, waiting } = fakeBridge();
    const transport = createIpcTransport(bridge);
    const pending = transport.invoke('app.info', {});
    waiting[0]!({ ok: true, result: { name: 'Toolbelt' } });
    await expect(pending).resolves.toEqual({ name: 'Toolbelt' });
    expect(calls).toEqual([{ operation: 'app.info', params: {} }]);
  });
});

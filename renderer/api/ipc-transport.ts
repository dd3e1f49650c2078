import { errorFromBody } from '../../shared/errors.js';
import { CORE_EVENT_TYPES, type CoreEvent } from '../../shared/events.js';
import type { ToolbeltBridge } from '../../shared/ipc.js';
import type { Transport } from './transport.js';

/** Electron's transport: the two functions preload exposes. */
export function createIpcTransport(bridge: ToolbeltBridge): Transport {
  return {
    kind: 'ipc',
    async invoke(name, params) {
      const envelope = await bridge.invoke(name, params ?? {});
      if (envelope.ok) return envelope.result;
      throw errorFromBody(envelope, `${name} failed.`);
    },
    subscribe(listener) {
      const unsubscribers = CORE_EVENT_TYPES.map((type) =>
        bridge.on(type, (payload) => listener(payload as CoreEvent)),
      );
      return () => unsubscribers.forEach((unsubscribe) => unsubscribe());
    },
    onStatus(listener) {
      // IPC is in-process: it is up for as long as the window exists.
      listener('connected');
      return () => {};
    },
    close() {},
  };
}

import { errorFromBody, ToolbeltError } from '../../shared/errors.js';
import { CORE_EVENT_TYPES, type CoreEvent } from '../../shared/events.js';
import type { ToolbeltBridge } from '../../shared/ipc.js';
import type { Transport } from './transport.js';

/** Electron's transport: the two functions preload exposes. */
export function createIpcTransport(bridge: ToolbeltBridge): Transport {
  return {
    kind: 'ipc',
    async invoke(name, params, options = {}) {
      if (!options.signal) {
        const envelope = await bridge.invoke(name, params ?? {});
        if (envelope.ok) return envelope.result;
        throw errorFromBody(envelope, `${name} failed.`);
      }
      // IPC cannot close a request: the call gets a name, and a cancel asks
      // the core to abort it (the tool stops), while this side stops waiting.
      const callId = crypto.randomUUID();
      const signal = options.signal;
      const cancelled = new Promise<never>((_, reject) => {
        const stop = () => {
          void bridge.invoke('calls.cancel', { callId }).catch(() => {});
          reject(new ToolbeltError('cancelled', 'Cancelled.'));
        };
        if (signal.aborted) stop();
        else signal.addEventListener('abort', stop, { once: true });
      });
      cancelled.catch(() => {}); // a cancel after the answer is no one's error
      const envelope = await Promise.race([bridge.invoke(name, params ?? {}, callId), cancelled]);
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

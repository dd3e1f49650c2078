import { createContext, useContext, useEffect, useState, type ReactNode } from 'react';
import type { ApiClient } from './client.js';
import type { ConnectionStatus, Transport } from './transport.js';

interface CoreConnection {
  api: ApiClient;
  transport: Transport;
}

const CoreContext = createContext<CoreConnection | null>(null);

export function CoreProvider({ value, children }: { value: CoreConnection; children: ReactNode }) {
  return <CoreContext.Provider value={value}>{children}</CoreContext.Provider>;
}

function useCore(): CoreConnection {
  const connection = useContext(CoreContext);
  if (!connection) throw new Error('useApi must be used inside <CoreProvider>.');
  return connection;
}

export function useApi(): ApiClient {
  return useCore().api;
}

export function useCoreTransport(): Transport {
  return useCore().transport;
}

export function useTransportKind(): Transport['kind'] {
  return useCore().transport.kind;
}

/** Live state of the event stream (always "connected" under Electron). */
export function useConnectionStatus(): ConnectionStatus {
  const { transport } = useCore();
  const [status, setStatus] = useState<ConnectionStatus>('connecting');
  useEffect(() => transport.onStatus(setStatus), [transport]);
  return status;
}

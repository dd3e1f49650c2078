import type { CoreEvent } from '../../shared/events.js';
import type { OperationName } from '../../shared/operations/index.js';

export type ConnectionStatus = 'connecting' | 'connected' | 'reconnecting' | 'unauthorized';

/** How the renderer reaches the core: Electron IPC or the browser host's HTTP. */
export interface Transport {
  readonly kind: 'ipc' | 'http';
  /** Resolves with the operation's result; rejects with a ToolbeltError. */
  invoke(name: OperationName, params: unknown, options?: { signal?: AbortSignal }): Promise<unknown>;
  /**
   * An operation (one whose route has no path parameters) with its JSON body already made, as a Blob: the HTTP
   * transport sends it as it is, so a body of tens of MB never becomes a string on the page. IPC has none.
   */
  invokeWithBody?(name: OperationName, body: Blob): Promise<unknown>;
  subscribe(listener: (event: CoreEvent) => void): () => void;
  onStatus(listener: (status: ConnectionStatus) => void): () => void;
  close(): void;
}

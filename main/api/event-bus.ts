import type { CoreEvent } from '../../shared/events.js';

export type EventListener = (event: CoreEvent) => void;

/** Fan-out of core events to every connected window or event stream. */
export interface EventBus {
  publish(event: CoreEvent): void;
  subscribe(listener: EventListener): () => void;
  readonly listenerCount: number;
}

export function createEventBus(onListenerError: (error: unknown) => void): EventBus {
  const listeners = new Set<EventListener>();
  return {
    publish(event) {
      for (const listener of listeners) {
        // One broken consumer (a closed socket, a destroyed window) must not
        // keep the event from the others.
        try {
          listener(event);
        } catch (error) {
          onListenerError(error);
        }
      }
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    get listenerCount() {
      return listeners.size;
    },
  };
}

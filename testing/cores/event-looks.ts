import type { CoreEvent } from '../../shared/events.js';
import type { EventBus } from '../../main/api/event-bus.js';

/**
 * Looks at the core now and again on each event `wanted` picks, never two
 * looks at once: an event that comes during a look makes one more look
 * after it, so nothing that changed is missed and no timer polls. A look's
 * failure goes to `failed`; the next event looks again. Returns the stop.
 */
export function lookOnEvents(events: Pick<EventBus, 'subscribe'>, wanted: (event: CoreEvent) => boolean, look: () => Promise<void>, failed: (error: unknown) => void): () => void {
  let looking = false;
  let lookAgain = false;
  const lookNow = async () => {
    if (looking) return void (lookAgain = true);
    looking = true;
    try {
      do {
        lookAgain = false;
        await look();
      } while (lookAgain);
    } finally {
      looking = false;
    }
  };
  const start = () => void lookNow().catch(failed);
  const stop = events.subscribe((event) => {
    if (wanted(event)) start();
  });
  start();
  return () => void stop();
}

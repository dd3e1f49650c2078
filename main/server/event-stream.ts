import type { ServerResponse } from 'node:http';
import type { EventBus } from '../api/event-bus.js';

/**
 * Server-sent events over one long response. The browser reads it with
 * fetch (EventSource cannot send the Authorization header).
 */
export function openEventStream(response: ServerResponse, events: EventBus, keepAliveMs: number): () => void {
  response.writeHead(200, {
    'Content-Type': 'text/event-stream; charset=utf-8',
    'Cache-Control': 'no-store',
    Connection: 'keep-alive',
    'X-Accel-Buffering': 'no',
  });
  // Tells the client the stream is live before the first real event.
  response.write(': connected\n\n');
  const unsubscribe = events.subscribe((event) => {
    response.write(`event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`);
  });
  const keepAlive = setInterval(() => response.write(': keep-alive\n\n'), keepAliveMs);
  let closed = false;
  const close = () => {
    if (closed) return;
    closed = true;
    clearInterval(keepAlive);
    unsubscribe();
    if (!response.writableEnded) response.end();
  };
  response.on('close', close);
  return close;
}

import type { EventStore, JSONRPCMessage } from '@modelcontextprotocol/server';

/** What one session keeps for a client that reconnects: its last events, up to this many and this much text. */
export const KEPT_EVENTS = 100;
export const KEPT_CHARS = 2_000_000;

interface Kept {
  id: string;
  streamId: string;
  message: JSONRPCMessage;
  chars: number;
}

/**
 * The SSE events of one session, so a client whose stream broke can ask for
 * what it missed (Last-Event-ID, SEP-1699); with it the SDK also opens each
 * stream with a priming event. Bounded: the oldest go first, so a session
 * that streams large results for hours holds at most KEPT_CHARS.
 */
export class SessionEventStore implements EventStore {
  private readonly events: Kept[] = [];
  private chars = 0;
  private counter = 0;

  storeEvent(streamId: string, message: JSONRPCMessage): Promise<string> {
    const id = `${streamId}_${++this.counter}`;
    const chars = JSON.stringify(message).length;
    this.events.push({ id, streamId, message, chars });
    this.chars += chars;
    while (this.events.length > KEPT_EVENTS || (this.chars > KEPT_CHARS && this.events.length > 1)) this.chars -= this.events.shift()!.chars;
    return Promise.resolve(id);
  }

  getStreamIdForEventId(eventId: string): Promise<string | undefined> {
    return Promise.resolve(this.events.find((event) => event.id === eventId)?.streamId ?? streamOf(eventId));
  }

  async replayEventsAfter(lastEventId: string, { send }: { send: (eventId: string, message: JSONRPCMessage) => Promise<void> }): Promise<string> {
    const streamId = streamOf(lastEventId);
    if (!streamId) throw new Error(`unknown event ID ${lastEventId.slice(0, 100)}`);
    const after = this.events.findIndex((event) => event.id === lastEventId);
    // Gone from what is kept: all that is left of its stream. Priming events ({}) carry no message to send again.
    for (const event of this.events.slice(after + 1)) if (event.streamId === streamId && 'jsonrpc' in event.message) await send(event.id, event.message);
    return streamId;
  }
}

/** The stream an event ID was made for ("<stream>_<n>"), or undefined for one that is not ours. */
function streamOf(eventId: string): string | undefined {
  const cut = eventId.lastIndexOf('_');
  return cut > 0 ? eventId.slice(0, cut) : undefined;
}

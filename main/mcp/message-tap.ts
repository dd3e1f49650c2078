import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';

export type Direction = 'sent' | 'received';
export interface SeenMessage {
  direction: Direction;
  message: JSONRPCMessage;
  atMs: number;
}
type Listener = (direction: Direction, message: JSONRPCMessage) => void;

/**
 * Lets the tester watch a connection's JSON-RPC messages. The transport is
 * wrapped only while someone watches: untraced calls, nearly all of them,
 * go through the SDK's own send and receive.
 */
export class MessageTap {
  private readonly listeners = new Set<Listener>();
  private restore: (() => void) | null = null;

  constructor(private readonly transport: Transport) {}

  /** Starts passing messages to `listener`; the function returned stops it. */
  listen(listener: Listener): () => void {
    if (this.listeners.size === 0) this.wrap();
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
      if (this.listeners.size === 0) this.unwrap();
    };
  }

  private wrap(): void {
    const { transport } = this;
    // send is the class's method: unwrapping removes ours so it is found on the class again.
    const ownSend = Object.getOwnPropertyDescriptor(transport, 'send');
    const send = transport.send.bind(transport);
    const receive = transport.onmessage;
    transport.send = (message, options) => {
      for (const listener of this.listeners) listener('sent', message);
      return send(message, options);
    };
    transport.onmessage = (message, extra) => {
      for (const listener of this.listeners) listener('received', message);
      receive?.(message, extra);
    };
    this.restore = () => {
      if (ownSend) Object.defineProperty(transport, 'send', ownSend);
      else Reflect.deleteProperty(transport, 'send');
      transport.onmessage = receive;
    };
  }

  private unwrap(): void {
    this.restore?.();
    this.restore = null;
  }
}

const field = (value: unknown, key: string): unknown => (value && typeof value === 'object' ? (value as Record<string, unknown>)[key] : undefined);

/**
 * The messages of one tools/call among everything a connection carried
 * meanwhile (other calls, a tool list being read again): the request and its
 * response, its progress and cancellation, the questions the server asked
 * and their answers, and the server's log lines. Without the request (it was
 * never sent) everything seen is kept.
 */
export function messagesOfCall(seen: SeenMessage[], toolName: string): SeenMessage[] {
  const request = seen.find(({ direction, message }) => direction === 'sent' && field(message, 'method') === 'tools/call' && field(field(message, 'params'), 'name') === toolName);
  if (!request) return seen;
  const id = field(request.message, 'id');
  const questions = new Set(seen.filter(({ direction, message }) => direction === 'received' && 'method' in message && 'id' in message).map(({ message }) => field(message, 'id')));
  return seen.filter(({ direction, message }) => {
    const method = field(message, 'method');
    const messageID = field(message, 'id');
    if (method === undefined) return direction === 'received' ? messageID === id : questions.has(messageID);
    if (messageID !== undefined) return direction === 'sent' ? messageID === id : true;
    const params = field(message, 'params');
    return method === 'notifications/message' || field(params, 'progressToken') === id || field(params, 'requestId') === id;
  });
}

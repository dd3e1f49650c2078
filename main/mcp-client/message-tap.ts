import type { JSONRPCMessage, Transport } from '@modelcontextprotocol/client';
import type { RpcMessage } from '../../shared/schemas/invocation.js';
import { settle } from '../common/settle.js';

const MAX_RECORDED_MESSAGES = 100;
const MAX_RECORDED_CHARS = 16_384;

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

/** The JSON-RPC messages of one call of `toolName` made by `work`, cut to what a person reads (none without a tap). */
export async function recordCall<T>(tap: MessageTap | null, toolName: string, work: () => Promise<T>): Promise<{ outcome: PromiseSettledResult<T>; messages: RpcMessage[] }> {
  const started = performance.now();
  const seen: SeenMessage[] = [];
  // Other calls may run meanwhile: a few more than a call's own messages are kept to pick them from.
  const stop = tap?.listen((direction, message) => {
    if (seen.length < MAX_RECORDED_MESSAGES * 4) seen.push({ direction, message, atMs: Math.round(performance.now() - started) });
  });
  let outcome: PromiseSettledResult<T>;
  try {
    outcome = await settle(work());
  } finally {
    stop?.();
  }
  const messages = messagesOfCall(seen, toolName)
    .slice(0, MAX_RECORDED_MESSAGES)
    .map(({ direction, message, atMs }) => {
      const text = JSON.stringify(message, null, 2);
      return { direction, atMs, text: text.slice(0, MAX_RECORDED_CHARS), truncated: text.length > MAX_RECORDED_CHARS };
    });
  return { outcome, messages };
}

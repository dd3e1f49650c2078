import type { CompletedToolCall } from './model.js';
import { parseArguments, syntheticCallId } from './transcript.js';

interface ToolCallDelta {
  index?: number | null;
  id?: string | null;
  function?: { name?: string | null; arguments?: string | null } | null;
}

interface OpenCall {
  id: string;
  idFromServer: boolean;
  index: number | null;
  name: string;
  argumentText: string;
}

/**
 * Assembles OpenAI-style streamed tool calls as real servers send them:
 * correlated by id first, then by index (which may start at 1, skip, repeat
 * or be missing); the name may come in every chunk or only the first; a
 * call without an id gets one. Arguments are parsed only when the turn ends.
 */
export class OpenAiToolCallAssembler {
  private readonly calls: OpenCall[] = [];

  get size(): number {
    return this.calls.length;
  }

  /** Takes one delta; returns the call it belongs to and the argument text it added. */
  accept(delta: ToolCallDelta): { callId: string; name: string; argsDelta: string } {
    const call = this.callFor(delta);
    const name = delta.function?.name;
    if (name && !call.name) call.name = name;
    const argsDelta = delta.function?.arguments ?? '';
    call.argumentText += argsDelta;
    return { callId: call.id, name: call.name, argsDelta };
  }

  finish(): CompletedToolCall[] {
    return this.calls.map((call) => ({ id: call.id, name: call.name, ...parseArguments(withoutRepeatedStart(call.argumentText)) }));
  }

  private callFor(delta: ToolCallDelta): OpenCall {
    const index = typeof delta.index === 'number' ? delta.index : null;
    const id = delta.id || null;
    if (id) {
      const byId = this.calls.find((call) => call.idFromServer && call.id === id);
      if (byId) return byId;
      // A first chunk without an id, whose id arrives in a later chunk.
      const waiting = index === null ? undefined : this.lastWithIndex(index);
      if (waiting && !waiting.idFromServer && waiting.argumentText === '') {
        waiting.id = id;
        waiting.idFromServer = true;
        return waiting;
      }
      return this.open(id, true, index);
    }
    const byIndex = index === null ? this.calls.at(-1) : this.lastWithIndex(index);
    return byIndex ?? this.open(syntheticCallId(), false, index);
  }

  private lastWithIndex(index: number): OpenCall | undefined {
    for (let i = this.calls.length - 1; i >= 0; i--) if (this.calls[i]!.index === index) return this.calls[i];
    return undefined;
  }

  private open(id: string, idFromServer: boolean, index: number | null): OpenCall {
    const call: OpenCall = { id, idFromServer, index, name: '', argumentText: '' };
    this.calls.push(call);
    return call;
  }
}

/**
 * Some servers' tool parsers (vLLM's, at the end of a stream) send the whole
 * arguments again after the pieces already streamed: `{"a":1}{"a":1}`, or
 * `{` then `{"a":1}`. When the text is no JSON but ends in an object that
 * the streamed start is the beginning of, that object is the arguments.
 */
export function withoutRepeatedStart(text: string): string {
  if (text.length > MAX_REPAIRED_CHARS || isJson(text)) return text;
  // Where a repeat can start: after a lone "{", or after an object's end. A few are tried, so hostile text stays cheap.
  let tried = 0;
  for (let at = text.indexOf('{', 1); at > 0 && tried < MAX_REPEAT_STARTS; at = text.indexOf('{', at + 1)) {
    const before = text.slice(0, at).trim();
    if (before !== '{' && !before.endsWith('}')) continue;
    tried++;
    const whole = text.slice(at);
    if (whole.length >= before.length && whole.startsWith(before) && isJson(whole)) return whole;
  }
  return text;
}

const MAX_REPAIRED_CHARS = 1_000_000;
const MAX_REPEAT_STARTS = 16;

function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

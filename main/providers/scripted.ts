import { userMessageText } from './transcript.js';
import { ToolbeltError } from '../../shared/errors.js';
import type { ScriptTurn } from '../../shared/schemas/provider.js';
import type { ModelEvent, ModelProvider } from './model.js';

export interface ScriptedOptions {
  script?: readonly ScriptTurn[];
  chunkDelayMs?: number;
}

function pause(ms: number, signal: AbortSignal): Promise<void> {
  if (ms <= 0) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      clearTimeout(timer);
      reject(new ToolbeltError('cancelled', 'The request to the model was cancelled.'));
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

/** Words with the spaces that follow them, so the joined pieces are the text. */
function pieces(text: string): string[] {
  return text.match(/\S+\s*|\s+/g) ?? [];
}

/** A call's argument text in pieces of about a token's length. */
function argumentPieces(json: string): string[] {
  return json.match(/[\s\S]{1,12}/g) ?? [''];
}

/**
 * Plays back a fixed list of turns: the chat's n-th model turn is the
 * script's n-th entry. Without a script it echoes the last message. For
 * tests, demos, and trying tools without a model.
 */
export function createScriptedProvider(options: ScriptedOptions): ModelProvider {
  const delay = options.chunkDelayMs ?? 0;
  return {
    async *stream(request) {
      const turnIndex = request.messages.filter((message) => message.role === 'assistant').length;
      const lastUser = request.messages.findLast((message) => message.role === 'user');
      const turn: ScriptTurn = options.script
        ? (options.script[turnIndex] ?? { text: 'The script has no more turns.' })
        : { text: `You said: ${lastUser?.role === 'user' ? userMessageText(lastUser) : ''}` };
      const check = () => {
        if (request.signal.aborted) throw new ToolbeltError('cancelled', 'The request to the model was cancelled.');
      };
      for (const piece of pieces(turn.text ?? '')) {
        await pause(delay, request.signal);
        check();
        yield { type: 'text-delta', text: piece } satisfies ModelEvent;
      }
      const calls = (turn.toolCalls ?? []).map((call, index) => ({ id: `call_${turnIndex}_${index}`, name: call.name, args: call.args ?? {} }));
      // Arguments come in pieces, as a model writes them (an app shows them as they arrive).
      for (const call of calls) {
        for (const piece of argumentPieces(JSON.stringify(call.args))) {
          await pause(delay, request.signal);
          check();
          yield { type: 'tool-call-delta', callId: call.id, name: call.name, argsDelta: piece };
        }
      }
      for (const call of calls) yield { type: 'tool-call', call };
      yield { type: 'usage', inputTokens: 0, outputTokens: pieces(turn.text ?? '').length };
      yield { type: 'finish', reason: calls.length > 0 ? 'tool_calls' : 'stop' };
    },
    listModels: () => Promise.resolve([{ id: 'scripted', displayName: 'Scripted playback' }]),
  };
}

import { startFakeModelServer, type FakeModelServer, type FakeReply, type SseEvent } from './fake-model-server.js';

let chunkCounter = 0;

/** One `chat.completion.chunk` with a delta for choice 0. */
export function openAiChunk(delta: Record<string, unknown>, finishReason: string | null = null, extra: Record<string, unknown> = {}): SseEvent {
  return {
    data: {
      id: `chatcmpl-fake${++chunkCounter}`,
      object: 'chat.completion.chunk',
      created: 1_760_000_000,
      model: 'fake-model',
      choices: [{ index: 0, delta, finish_reason: finishReason, logprobs: null }],
      ...extra,
    },
  };
}

export const OPENAI_DONE: SseEvent = { data: '[DONE]' };

export function openAiUsage(prompt = 10, completion = 5): SseEvent {
  return { data: { id: 'chatcmpl-usage', object: 'chat.completion.chunk', created: 1_760_000_000, model: 'fake-model', choices: [], usage: { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion } } };
}

/** Text in pieces, then "stop", usage and [DONE], as api.openai.com sends it. */
export function openAiTextReply(pieces: string[], options: { delayMs?: number } = {}): FakeReply {
  return {
    kind: 'sse',
    delayMs: options.delayMs,
    events: [openAiChunk({ role: 'assistant', content: '' }), ...pieces.map((piece) => openAiChunk({ content: piece })), openAiChunk({}, 'stop'), openAiUsage(), OPENAI_DONE],
  };
}

/** Tool calls the way OpenAI streams them: id and name first, arguments in pieces. */
export function openAiToolCallReply(calls: { id: string; name: string; args: string[] }[], options: { finishReason?: string } = {}): FakeReply {
  const events: SseEvent[] = [openAiChunk({ role: 'assistant', content: null })];
  calls.forEach((call, index) => {
    events.push(openAiChunk({ tool_calls: [{ index, id: call.id, type: 'function', function: { name: call.name, arguments: '' } }] }));
    for (const piece of call.args) events.push(openAiChunk({ tool_calls: [{ index, function: { arguments: piece } }] }));
  });
  events.push(openAiChunk({}, options.finishReason ?? 'tool_calls'), openAiUsage(), OPENAI_DONE);
  return { kind: 'sse', events };
}

export function startFakeOpenAi(replies: FakeReply[] = [], options: { models?: string[]; refuse?: Parameters<typeof startFakeModelServer>[0]['refuse'] } = {}): Promise<FakeModelServer> {
  return startFakeModelServer({
    completionPath: '/v1/chat/completions',
    replies,
    refuse: options.refuse,
    models: options.models && { object: 'list', data: options.models.map((id) => ({ id, object: 'model', created: 1_700_000_000, owned_by: 'fake' })) },
  });
}

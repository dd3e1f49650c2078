import { startFakeModelServer, type FakeModelServer, type FakeReply, type SseEvent } from './fake-model-server.js';

const event = (type: string, data: Record<string, unknown>): SseEvent => ({ event: type, data: { type, ...data } });

function messageStart(): SseEvent {
  return event('message_start', {
    message: { id: 'msg_fake', type: 'message', role: 'assistant', model: 'claude-fake', content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: 12, output_tokens: 1 } },
  });
}

function messageEnd(stopReason: string, outputTokens = 7): SseEvent[] {
  return [event('message_delta', { delta: { stop_reason: stopReason, stop_sequence: null }, usage: { output_tokens: outputTokens } }), event('message_stop', {})];
}

export function anthropicText(index: number, pieces: string[]): SseEvent[] {
  return [
    event('content_block_start', { index, content_block: { type: 'text', text: '' } }),
    event('ping', {}),
    ...pieces.map((text) => event('content_block_delta', { index, delta: { type: 'text_delta', text } })),
    event('content_block_stop', { index }),
  ];
}

/** A tool_use block; `id` or `name` left out sends the block without it, as a broken server might. */
export function anthropicToolUse(index: number, call: { id?: string; name?: string; json: string[] }): SseEvent[] {
  return [
    event('content_block_start', { index, content_block: { type: 'tool_use', id: call.id, name: call.name, input: {} } }),
    ...call.json.map((partial_json) => event('content_block_delta', { index, delta: { type: 'input_json_delta', partial_json } })),
    event('content_block_stop', { index }),
  ];
}

/**
 * Anthropic's own tool search, as the Messages API streams it: the
 * server_tool_use block of tool_search_tool_bm25 with its query, then the
 * tool_search_tool_result naming the deferred tools it loaded.
 */
export function anthropicToolSearch(index: number, search: { id: string; query: string; found: string[] }): SseEvent[] {
  return [
    event('content_block_start', { index, content_block: { type: 'server_tool_use', id: search.id, name: 'tool_search_tool_bm25', input: {}, caller: { type: 'direct' } } }),
    event('content_block_delta', { index, delta: { type: 'input_json_delta', partial_json: JSON.stringify({ query: search.query }) } }),
    event('content_block_stop', { index }),
    event('content_block_start', {
      index: index + 1,
      content_block: { type: 'tool_search_tool_result', tool_use_id: search.id, content: { type: 'tool_search_tool_search_result', tool_references: search.found.map((tool_name) => ({ type: 'tool_reference', tool_name })) } },
    }),
    event('content_block_stop', { index: index + 1 }),
  ];
}

/** A whole message: optional text, Anthropic's own tool search, then tool_use blocks, as the Messages API streams it. */
export function anthropicReply(
  parts: { text?: string[]; search?: { id: string; query: string; found: string[] }; calls?: { id?: string; name?: string; json: string[] }[] },
  options: { delayMs?: number; stop?: boolean } = {},
): FakeReply {
  const blocks: SseEvent[] = [];
  let index = 0;
  if (parts.text) blocks.push(...anthropicText(index++, parts.text));
  if (parts.search) {
    blocks.push(...anthropicToolSearch(index, parts.search));
    index += 2;
  }
  for (const call of parts.calls ?? []) blocks.push(...anthropicToolUse(index++, call));
  const stopReason = parts.calls?.length ? 'tool_use' : 'end_turn';
  return { kind: 'sse', delayMs: options.delayMs, events: [messageStart(), ...blocks, ...(options.stop === false ? [] : messageEnd(stopReason))] };
}

export function anthropicError(type: string, message: string): SseEvent {
  return { event: 'error', data: { type: 'error', error: { type, message } } };
}

export { messageStart as anthropicMessageStart };

export function startFakeAnthropic(replies: FakeReply[] = [], options: { models?: string[] } = {}): Promise<FakeModelServer> {
  return startFakeModelServer({
    completionPath: '/v1/messages',
    replies,
    models: options.models && {
      data: options.models.map((id) => ({ type: 'model', id, display_name: id.toUpperCase(), created_at: '2026-01-01T00:00:00Z' })),
      has_more: false,
      first_id: options.models[0] ?? null,
      last_id: options.models.at(-1) ?? null,
    },
  });
}

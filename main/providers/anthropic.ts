import { onFirstUse } from '../common/on-first-use.js';
import type { ContentBlockParam, MessageParam, ToolResultBlockParam } from '@anthropic-ai/sdk/resources/messages';
import type { ChatMessage } from '../../shared/schemas/chat.js';
import { ANSWER_TOOL_NAME, answerTool } from './answer-tool.js';
import type { ProviderConnection } from './connection.js';
import { failureFor, incompleteStream } from './errors.js';
import { sdkClientOptions, sdkRequestOptions } from './sdk-options.js';
import type { CompletedToolCall, ModelEvent, ModelProvider } from './model.js';
import { parseArguments, syntheticCallId, toolResultImages, toolResultText, toolRunContext, userMessageDocuments, userMessageImages, userMessageText, wireToolName } from './transcript.js';

export const ANTHROPIC_DEFAULT_BASE_URL = 'https://api.anthropic.com';
const MAX_OUTPUT_TOKENS = 8192;

/**
 * The chat in Messages form: roles alternate (neighbours of one role are
 * merged), tool results come first in the user message that follows the
 * calls, failures carry is_error.
 */
export function toAnthropicMessages(messages: readonly ChatMessage[]): MessageParam[] {
  const wire: { role: 'user' | 'assistant'; content: ContentBlockParam[] }[] = [];
  const add = (role: 'user' | 'assistant', blocks: ContentBlockParam[]) => {
    if (blocks.length === 0) return;
    const last = wire.at(-1);
    if (last?.role === role) {
      // Results must lead a user message; text from the person follows them.
      const results = blocks.filter((block) => block.type === 'tool_result');
      const others = blocks.filter((block) => block.type !== 'tool_result');
      last.content = [...results, ...last.content, ...others];
    } else wire.push({ role, content: blocks });
  };
  for (const message of messages) {
    if (message.role === 'user') {
      const images = userMessageImages(message).map((image): ContentBlockParam => ({ type: 'image', source: { type: 'base64', media_type: image.mimeType, data: image.data } }));
      const documents = userMessageDocuments(message).map((document): ContentBlockParam => ({ type: 'document', title: document.name, source: { type: 'base64', media_type: 'application/pdf', data: document.data } }));
      add('user', [{ type: 'text', text: userMessageText(message) }, ...images, ...documents]);
    }
    else if (message.role === 'tool-run') {
      if (message.shareWithModel) add('user', [{ type: 'text', text: toolRunContext(message) }]);
    } else {
      const blocks: ContentBlockParam[] = message.content ? [{ type: 'text', text: message.content }] : [];
      // The provider's own tool search of this turn, before the calls it made possible.
      for (const block of message.serverBlocks ?? []) blocks.push(block as unknown as ContentBlockParam);
      for (const call of message.toolCalls) blocks.push({ type: 'tool_use', id: call.id, name: wireToolName(call.name), input: call.args });
      add('assistant', blocks);
      add(
        'user',
        message.toolCalls.map((call): ToolResultBlockParam => {
          const { text, isError } = toolResultText(call);
          const images = toolResultImages(call).map((image) => ({ type: 'image' as const, source: { type: 'base64' as const, media_type: image.mimeType, data: image.data } }));
          // Pictures go inside the result, after its text: the model sees what the tool returned.
          const content = images.length ? [{ type: 'text' as const, text }, ...images] : text;
          return { type: 'tool_result', tool_use_id: call.id, content, ...(isError ? { is_error: true } : {}) };
        }),
      );
    }
  }
  endPrefill(wire);
  return wire;
}

/**
 * A chat continued after a stop ends on the model's own words, which the
 * API takes as the start of its answer; it refuses such a start when it ends
 * in white space, so that is trimmed (and a block left empty dropped).
 */
function endPrefill(wire: { role: 'user' | 'assistant'; content: ContentBlockParam[] }[]): void {
  const last = wire.at(-1);
  if (last?.role !== 'assistant') return;
  const block = last.content.at(-1);
  if (block?.type !== 'text') return;
  const text = block.text.trimEnd();
  if (text) last.content[last.content.length - 1] = { ...block, text };
  else last.content.pop();
  if (last.content.length === 0) wire.pop();
}

/** The tool search Anthropic runs itself, over tools sent with defer_loading. */
const NATIVE_TOOL_SEARCH = { type: 'tool_search_tool_bm25_20251119', name: 'tool_search_tool_bm25' } as const;

/** Models with Anthropic's tool search tool: Claude Opus and Sonnet from 4.5 on, and later generations. */
export function hasNativeToolSearch(model: string): boolean {
  const version = /^claude-(?:opus|sonnet)-(\d+)(?:-(\d))?(?:\b|-)/.exec(model);
  if (!version) return false;
  const major = Number(version[1]);
  const minor = version[2] === undefined ? 0 : Number(version[2]);
  return major > 4 || (major === 4 && minor >= 5);
}

/** Content blocks the server ran itself and wants back as they came. */
const SERVER_BLOCKS = new Set(['server_tool_use', 'tool_search_tool_result']);

function finishReason(reason: string | null, hasToolCalls: boolean): Extract<ModelEvent, { type: 'finish' }>['reason'] {
  if (hasToolCalls || reason === 'tool_use') return 'tool_calls';
  if (reason === 'end_turn' || reason === 'stop_sequence') return 'stop';
  if (reason === 'max_tokens') return 'length';
  return 'other';
}

export function createAnthropicProvider(connection: ProviderConnection): ModelProvider {
  const baseURL = connection.baseURL ?? ANTHROPIC_DEFAULT_BASE_URL;
  const client = onFirstUse(async () => {
    const { default: Anthropic } = await import('@anthropic-ai/sdk');
    return new Anthropic({ apiKey: connection.apiKey ?? null, ...sdkClientOptions(connection, baseURL) });
  });
  const failure = failureFor(connection, baseURL);

  return {
    async *stream(request) {
      // A structured answer comes as the input of a tool the model must call (tool_choice "any": it calls a tool every turn).
      const answer = request.answerSchema ? answerTool(request.answerSchema) : null;
      const tools = answer ? [...request.tools, answer.definition] : request.tools;
      const open = new Map<number, { id: string; name: string; json: string; input: unknown }>();
      const server = new Map<number, { block: Record<string, unknown>; json: string }>();
      const deferred = tools.some((tool) => tool.deferred);
      let stopReason: string | null = null;
      let stopped = false;
      let called = 0;
      try {
        const stream = await (await client()).messages.create(
          {
            model: request.model,
            max_tokens: MAX_OUTPUT_TOKENS,
            ...(request.system ? { system: request.system } : {}),
            ...(request.temperature !== undefined ? { temperature: request.temperature } : {}),
            messages: toAnthropicMessages(request.messages),
            stream: true,
            ...(tools.length > 0
              ? {
                  tools: [
                    ...tools.map((tool) => ({
                      name: tool.name,
                      description: tool.description,
                      input_schema: { ...tool.parameters, type: 'object' as const },
                      ...(tool.deferred ? { defer_loading: true } : {}),
                    })),
                    ...(deferred ? [NATIVE_TOOL_SEARCH] : []),
                  ],
                  ...(answer
                    ? { tool_choice: { type: 'any' as const, ...(request.parallelToolCalls ? {} : { disable_parallel_tool_use: true }) } }
                    : request.parallelToolCalls
                      ? {}
                      : { tool_choice: { type: 'auto' as const, disable_parallel_tool_use: true } }),
                }
              : {}),
          },
          sdkRequestOptions(request),
        );
        for await (const event of stream) {
          switch (event.type) {
            case 'message_start':
              yield { type: 'usage', inputTokens: event.message.usage.input_tokens };
              break;
            case 'content_block_start':
              if (event.content_block.type === 'text' && event.content_block.text) yield { type: 'text-delta', text: event.content_block.text };
              if (SERVER_BLOCKS.has(event.content_block.type)) server.set(event.index, { block: { ...(event.content_block as unknown as Record<string, unknown>) }, json: '' });
              if (event.content_block.type === 'tool_use') {
                const block = event.content_block;
                // A broken server may leave out the id or the name; the chat engine makes such a call a failed one.
                const call = { id: typeof block.id === 'string' && block.id ? block.id : syntheticCallId(), name: typeof block.name === 'string' ? block.name : '', json: '', input: block.input };
                open.set(event.index, call);
                yield { type: 'tool-call-delta', callId: call.id, name: call.name, argsDelta: '' };
              }
              break;
            case 'content_block_delta':
              if (event.delta.type === 'text_delta') yield { type: 'text-delta', text: event.delta.text };
              else if (event.delta.type === 'input_json_delta') {
                const ran = server.get(event.index);
                if (ran) ran.json += event.delta.partial_json;
                const call = open.get(event.index);
                if (call) {
                  call.json += event.delta.partial_json;
                  yield { type: 'tool-call-delta', callId: call.id, name: call.name, argsDelta: event.delta.partial_json };
                }
              }
              break;
            case 'content_block_stop': {
              const ran = server.get(event.index);
              if (ran) {
                server.delete(event.index);
                yield { type: 'server-block', block: serverBlock(ran) };
                break;
              }
              // The block's end is when its arguments are whole, not when the text first parses.
              const call = open.get(event.index);
              if (call) {
                open.delete(event.index);
                const done = completed(call);
                if (answer && done.name === ANSWER_TOOL_NAME) {
                  yield { type: 'answer', value: answer.valueOf(done.args) };
                  break;
                }
                called++;
                yield { type: 'tool-call', call: done };
              }
              break;
            }
            case 'message_delta':
              stopReason = event.delta.stop_reason ?? stopReason;
              if (event.usage?.output_tokens !== undefined) yield { type: 'usage', outputTokens: event.usage.output_tokens };
              break;
            case 'message_stop':
              stopped = true;
              break;
          }
        }
      } catch (error) {
        throw failure(error, request);
      }
      if (!stopped) throw incompleteStream(connection.displayName);
      yield { type: 'finish', reason: finishReason(stopReason, called > 0) };
    },

    nativeToolSearch: hasNativeToolSearch,

    async listModels(signal) {
      try {
        const models = [];
        for await (const model of (await client()).models.list({}, { signal })) models.push({ id: model.id, displayName: model.display_name });
        return models;
      } catch (error) {
        if ((error as { status?: number }).status === 404) return null;
        throw failure(error);
      }
    },
  };
}

/** A server block as it goes back: its streamed input whole, and nothing the request form does not take (the caller). */
function serverBlock({ block, json }: { block: Record<string, unknown>; json: string }): Record<string, unknown> {
  const { caller: _caller, ...kept } = block;
  if (kept.type !== 'server_tool_use' || json === '') return kept;
  const parsed = parseArguments(json);
  return { ...kept, input: parsed.rawArgs === undefined ? parsed.args : {} };
}

function completed(call: { id: string; name: string; json: string; input: unknown }): CompletedToolCall {
  // Servers that send the whole input in the start block and no deltas.
  if (call.json === '' && call.input && typeof call.input === 'object' && Object.keys(call.input).length > 0) {
    return { id: call.id, name: call.name, args: call.input as Record<string, unknown> };
  }
  return { id: call.id, name: call.name, ...parseArguments(call.json) };
}

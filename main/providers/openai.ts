import OpenAI from 'openai';
import type { ChatCompletionMessageParam, ChatCompletionTool } from 'openai/resources/chat/completions';
import type { ChatMessage } from '../../shared/schemas/chat.js';
import { failureFor, incompleteStream, sdkClientOptions } from './errors.js';
import type { ModelEvent, ModelProvider } from './model.js';
import { OpenAiToolCallAssembler } from './openai-tool-calls.js';
import type { ProviderConnection } from './connection.js';
import { toolResultText, toolRunContext, userMessageText, wireToolName } from './transcript.js';

export const OPENAI_DEFAULT_BASE_URL = 'https://api.openai.com/v1';

/** The chat in Chat Completions messages: every tool call id answered by a tool message. */
export function toOpenAiMessages(system: string | undefined, messages: readonly ChatMessage[]): ChatCompletionMessageParam[] {
  const wire: ChatCompletionMessageParam[] = system ? [{ role: 'system', content: system }] : [];
  for (const message of messages) {
    if (message.role === 'user') wire.push({ role: 'user', content: userMessageText(message) });
    else if (message.role === 'tool-run') {
      if (message.shareWithModel) wire.push({ role: 'user', content: toolRunContext(message) });
    } else {
      if (message.content === '' && message.toolCalls.length === 0) continue;
      wire.push({
        role: 'assistant',
        content: message.content || null,
        ...(message.toolCalls.length > 0
          ? {
              tool_calls: message.toolCalls.map((call) => ({
                id: call.id,
                type: 'function' as const,
                function: { name: wireToolName(call.name), arguments: call.rawArgs ?? JSON.stringify(call.args) },
              })),
            }
          : {}),
      });
      for (const call of message.toolCalls) wire.push({ role: 'tool', tool_call_id: call.id, content: toolResultText(call).text });
    }
  }
  return wire;
}

function finishReason(reason: string, hasToolCalls: boolean): Extract<ModelEvent, { type: 'finish' }>['reason'] {
  // Some servers say "stop" while sending tool calls; the calls decide.
  if (hasToolCalls) return 'tool_calls';
  if (reason === 'stop') return 'stop';
  if (reason === 'length') return 'length';
  if (reason === 'tool_calls' || reason === 'function_call') return 'tool_calls';
  return 'other';
}

/** OpenAI Chat Completions and the servers that speak it (Ollama, LM Studio, vLLM, OpenRouter). */
export function createOpenAiProvider(connection: ProviderConnection): ModelProvider {
  const baseURL = connection.baseURL ?? OPENAI_DEFAULT_BASE_URL;
  const client = new OpenAI({
    // Local servers need no key, but the SDK insists on one.
    apiKey: connection.apiKey ?? 'no-key',
    ...sdkClientOptions(connection, baseURL),
  });
  const failure = failureFor(connection, baseURL);

  return {
    async *stream(request) {
      const tools: ChatCompletionTool[] = request.tools.map((tool) => ({
        type: 'function',
        function: { name: tool.name, description: tool.description, parameters: tool.parameters },
      }));
      const calls = new OpenAiToolCallAssembler();
      let finish: string | null = null;
      try {
        const stream = await client.chat.completions.create(
          {
            model: request.model,
            messages: toOpenAiMessages(request.system, request.messages),
            stream: true,
            stream_options: { include_usage: true },
            ...(request.temperature !== undefined ? { temperature: request.temperature } : {}),
            ...(tools.length > 0 ? { tools } : {}),
            ...(tools.length > 0 && !request.parallelToolCalls ? { parallel_tool_calls: false } : {}),
          },
          { signal: request.signal },
        );
        for await (const chunk of stream) {
          if (chunk.usage) yield { type: 'usage', inputTokens: chunk.usage.prompt_tokens, outputTokens: chunk.usage.completion_tokens };
          const choice = chunk.choices?.[0];
          if (!choice) continue;
          const delta = choice.delta;
          if (delta?.content) yield { type: 'text-delta', text: delta.content };
          for (const piece of delta?.tool_calls ?? []) yield { type: 'tool-call-delta', ...calls.accept(piece) };
          if (choice.finish_reason) finish = choice.finish_reason;
        }
      } catch (error) {
        throw failure(error, request);
      }
      if (finish === null) throw incompleteStream(connection.displayName);
      const completed = calls.finish();
      for (const call of completed) yield { type: 'tool-call', call };
      yield { type: 'finish', reason: finishReason(finish, completed.length > 0) };
    },

    async listModels(signal) {
      try {
        const models = [];
        for await (const model of client.models.list({ signal })) models.push({ id: model.id });
        return models;
      } catch (error) {
        if ((error as { status?: number }).status === 404) return null;
        throw failure(error);
      }
    },
  };
}

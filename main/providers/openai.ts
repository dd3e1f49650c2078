import { onFirstUse } from '../common/on-first-use.js';
import type { ChatCompletionCreateParamsNonStreaming, ChatCompletionMessageParam, ChatCompletionTool } from 'openai/resources/chat/completions';
import { ToolbeltError } from '../../shared/errors.js';
import type { ChatMessage } from '../../shared/schemas/chat.js';
import { failureFor, incompleteStream } from './errors.js';
import { sdkClientOptions, sdkRequestOptions } from './sdk-options.js';
import type { ModelEvent, ModelProvider, ModelRequest } from './model.js';
import { OpenAiToolCallAssembler } from './openai-tool-calls.js';
import type { ProviderConnection } from './connection.js';
import { toolResultImages, toolResultText, toolRunContext, userMessageDocuments, userMessageImages, userMessageText, wireToolName } from './transcript.js';

export const OPENAI_DEFAULT_BASE_URL = 'https://api.openai.com/v1';

/** The chat in Chat Completions messages: every tool call id answered by a tool message. */
export function toOpenAiMessages(system: string | undefined, messages: readonly ChatMessage[]): ChatCompletionMessageParam[] {
  const wire: ChatCompletionMessageParam[] = system ? [{ role: 'system', content: system }] : [];
  for (const message of messages) {
    if (message.role === 'user') {
      const images = userMessageImages(message);
      const documents = userMessageDocuments(message);
      const text = userMessageText(message);
      wire.push({
        role: 'user',
        content:
          images.length || documents.length
            ? [
                { type: 'text', text },
                ...images.map((image) => ({ type: 'image_url' as const, image_url: { url: `data:${image.mimeType};base64,${image.data}` } })),
                ...documents.map((document) => ({ type: 'file' as const, file: { filename: document.name, file_data: `data:application/pdf;base64,${document.data}` } })),
              ]
            : text,
      });
    }
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
      // A tool message takes text only: the pictures the calls returned follow in one user message, each named.
      const pictures = message.toolCalls.flatMap((call) => toolResultImages(call).map((image) => ({ call, image })));
      if (pictures.length) {
        wire.push({
          role: 'user',
          content: [
            { type: 'text', text: `[Pictures the tool calls returned: ${[...new Set(pictures.map(({ call }) => call.name))].join(', ')}]` },
            ...pictures.map(({ image }) => ({ type: 'image_url' as const, image_url: { url: `data:${image.mimeType};base64,${image.data}` } })),
          ],
        });
      }
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

/** Server and model pairs seen dropping the tool calls of streamed turns (Ollama), for as long as Toolbelt runs. */
const dropsStreamedToolCalls = new Set<string>();
const REMEMBERED_MODELS = 200;

function rememberDropsStreamedToolCalls(model: string): void {
  if (dropsStreamedToolCalls.size >= REMEMBERED_MODELS) dropsStreamedToolCalls.delete(dropsStreamedToolCalls.values().next().value!);
  dropsStreamedToolCalls.add(model);
}

/** OpenAI Chat Completions and the servers that speak it (Ollama, LM Studio, vLLM, OpenRouter). */
export function createOpenAiProvider(connection: ProviderConnection): ModelProvider {
  const baseURL = connection.baseURL ?? OPENAI_DEFAULT_BASE_URL;
  const client = onFirstUse(async () => {
    const { default: OpenAI, AzureOpenAI } = await import('openai');
    return connection.azureApiVersion
      ? // Azure: the endpoint, an api-key header and api-version; a request's model names the deployment.
        new AzureOpenAI({ endpoint: baseURL, apiKey: connection.apiKey ?? 'no-key', apiVersion: connection.azureApiVersion, ...sdkClientOptions(connection, baseURL), baseURL: undefined })
      : new OpenAI({
          // Local servers need no key, but the SDK insists on one.
          apiKey: connection.apiKey ?? 'no-key',
          ...sdkClientOptions(connection, baseURL),
        });
  });
  const failure = failureFor(connection, baseURL);

  /** A whole answer asked for without streaming, in the same events a stream gives. */
  async function* wholeAnswer(body: ChatCompletionCreateParamsNonStreaming, request: ModelRequest): AsyncGenerator<ModelEvent> {
    const completion = await (await client()).chat.completions.create(body, sdkRequestOptions(request));
    if (completion.usage) yield { type: 'usage', inputTokens: completion.usage.prompt_tokens, outputTokens: completion.usage.completion_tokens };
    const choice = completion.choices?.[0];
    if (choice?.message?.content) yield { type: 'text-delta', text: choice.message.content };
    const calls = new OpenAiToolCallAssembler();
    (choice?.message?.tool_calls ?? []).forEach((call, index) => {
      if (call.type !== 'function') return;
      // Ollama's own API gives arguments as an object; its OpenAI side sometimes passes that through.
      const args: unknown = call.function.arguments;
      calls.accept({ index, id: call.id, function: { name: call.function.name, arguments: typeof args === 'string' ? args : JSON.stringify(args ?? {}) } });
    });
    const completed = calls.finish();
    for (const call of completed) yield { type: 'tool-call', call };
    yield { type: 'finish', reason: finishReason(choice?.finish_reason ?? 'stop', completed.length > 0) };
  }

  return {
    async *stream(request) {
      const tools: ChatCompletionTool[] = request.tools.map((tool) => ({
        type: 'function',
        function: { name: tool.name, description: tool.description, parameters: tool.parameters },
      }));
      const body = {
        model: request.model,
        messages: toOpenAiMessages(request.system, request.messages),
        ...(request.temperature !== undefined ? { temperature: request.temperature } : {}),
        ...(tools.length > 0 ? { tools } : {}),
        ...(tools.length > 0 && !request.parallelToolCalls ? { parallel_tool_calls: false } : {}),
        // Structured answers: the final message is JSON that the server holds to the schema (not strictly: people's schemas
        // rarely meet strict mode's rules, and the engine checks the answer either way).
        ...(request.answerSchema ? { response_format: { type: 'json_schema' as const, json_schema: { name: 'final_answer', schema: request.answerSchema, strict: false } } } : {}),
      };
      const model = `${baseURL}\0${request.model}`;
      try {
        if (tools.length > 0 && dropsStreamedToolCalls.has(model)) {
          yield* wholeAnswer({ ...body, stream: false }, request);
          return;
        }
        const calls = new OpenAiToolCallAssembler();
        let finish: string | null = null;
        let streamedText = false;
        const stream = await (await client()).chat.completions.create({ ...body, stream: true, stream_options: { include_usage: true } }, sdkRequestOptions(request));
        for await (const chunk of stream) {
          if (chunk.usage) yield { type: 'usage', inputTokens: chunk.usage.prompt_tokens, outputTokens: chunk.usage.completion_tokens };
          const choice = chunk.choices?.[0];
          if (!choice) continue;
          const delta = choice.delta;
          if (delta?.content) {
            streamedText = true;
            yield { type: 'text-delta', text: delta.content };
          }
          for (const piece of delta?.tool_calls ?? []) yield { type: 'tool-call-delta', ...calls.accept(piece) };
          if (choice.finish_reason) finish = choice.finish_reason;
        }
        if (finish === null) throw incompleteStream(connection.displayName);
        const completed = calls.finish();
        if (tools.length > 0 && completed.length === 0 && !streamedText) {
          // Ollama drops the tool calls of a streamed turn: it ends empty, with "stop". Asked again whole, the calls are there;
          // this model is then asked whole whenever tools are on.
          for await (const event of wholeAnswer({ ...body, stream: false }, request)) {
            if (event.type === 'tool-call') rememberDropsStreamedToolCalls(model);
            yield event;
          }
          return;
        }
        for (const call of completed) yield { type: 'tool-call', call };
        yield { type: 'finish', reason: finishReason(finish, completed.length > 0) };
      } catch (error) {
        if (error instanceof ToolbeltError) throw error;
        throw failure(error, request);
      }
    },

    learned: (model) => (dropsStreamedToolCalls.has(`${baseURL}\0${model}`) ? { streamsToolsWhole: true } : {}),

    async listModels(signal) {
      // Azure lists the models it offers, not the deployments a request names: there is no list to pick from.
      if (connection.azureApiVersion) return null;
      try {
        const models = [];
        for await (const model of (await client()).models.list({ signal })) models.push({ id: model.id });
        return models;
      } catch (error) {
        if ((error as { status?: number }).status === 404) return null;
        throw failure(error);
      }
    },
  };
}

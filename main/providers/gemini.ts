import type { Content, GenerateContentResponse, Part } from '@google/genai';
import { onFirstUse } from '../common/on-first-use.js';
import { ToolbeltError } from '../../shared/errors.js';
import type { ChatMessage } from '../../shared/schemas/chat.js';
import { ANSWER_TOOL_NAME, answerTool } from './answer-tool.js';
import type { ProviderConnection } from './connection.js';
import { failureFor, incompleteStream } from './errors.js';
import type { CompletedToolCall, ModelEvent, ModelProvider } from './model.js';
import { syntheticCallId, toolResultAudio, toolResultImages, toolResultText, toolRunContext, userMessageDocuments, userMessageImages, userMessageText, wireToolName } from './transcript.js';

export const GEMINI_DEFAULT_BASE_URL = 'https://generativelanguage.googleapis.com';
/** Ids Toolbelt made for calls the server sent without one: kept in the chat, never sent back as the server's. */
const LOCAL_ID_PREFIX = 'tb-';
/**
 * Gemini 3 and later refuse a replayed function call without the thought signature it came with. A call that has
 * none (made by another provider, or before signatures were kept) carries the marker Google documents for that.
 */
const SIGNATURE_NOT_KEPT = 'skip_thought_signature_validator';
const NEEDS_SIGNATURES = /^(?:models\/)?gemini-(\d+)/;

function needsSignatures(model: string): boolean {
  const major = NEEDS_SIGNATURES.exec(model)?.[1];
  return major !== undefined && Number(major) >= 3;
}

/**
 * The chat as Gemini contents: `user` and `model` turns, neighbours of one
 * role merged; a model turn's function calls are answered by function
 * responses in the user turn after it (results first, as the API expects).
 */
export function toGeminiContents(messages: readonly ChatMessage[], model: string): Content[] {
  const wire: { role: 'user' | 'model'; parts: Part[] }[] = [];
  const add = (role: 'user' | 'model', parts: Part[]) => {
    if (parts.length === 0) return;
    const last = wire.at(-1);
    if (last?.role === role) {
      const responses = parts.filter((part) => part.functionResponse);
      last.parts = [...responses, ...last.parts, ...parts.filter((part) => !part.functionResponse)];
    } else wire.push({ role, parts });
  };
  const mark = needsSignatures(model);
  for (const message of messages) {
    if (message.role === 'user') {
      const inline = [...userMessageImages(message), ...userMessageDocuments(message).map((document) => ({ mimeType: 'application/pdf', data: document.data }))];
      add('user', [{ text: userMessageText(message) }, ...inline.map((part): Part => ({ inlineData: { mimeType: part.mimeType, data: part.data } }))]);
    }
    else if (message.role === 'tool-run') {
      if (message.shareWithModel) add('user', [{ text: toolRunContext(message) }]);
    } else {
      const parts: Part[] = message.content ? [{ text: message.content }] : [];
      const signed = message.toolCalls.some((call) => call.signature);
      message.toolCalls.forEach((call, index) => {
        // Parallel calls: the first carries the turn's signature, the others none.
        const signature = call.signature ?? (mark && !signed && index === 0 ? SIGNATURE_NOT_KEPT : undefined);
        parts.push({
          functionCall: { name: wireToolName(call.name), args: call.args, ...serverId(call.id) },
          ...(signature ? { thoughtSignature: signature } : {}),
        });
      });
      add('model', parts);
      add('user', [
        ...message.toolCalls.map((call): Part => {
          const { text, isError } = toolResultText(call);
          // The response is an object: "output" for a result, "error" for a failure, as the API reads them.
          return { functionResponse: { name: wireToolName(call.name), ...serverId(call.id), response: isError ? { error: text } : { output: text } } };
        }),
        // The pictures and sounds the calls returned, after their responses in the same turn.
        ...message.toolCalls.flatMap((call) => [...toolResultImages(call), ...toolResultAudio(call)].map((media): Part => ({ inlineData: { mimeType: media.mimeType, data: media.data } }))),
      ]);
    }
  }
  return wire;
}

function serverId(id: string): { id?: string } {
  return id.startsWith(LOCAL_ID_PREFIX) ? {} : { id };
}

/** Why Gemini stopped, when it is not an answer: said as a sentence with what to do. */
const STOPPED_BECAUSE: Record<string, string> = {
  SAFETY: 'its safety filters blocked the answer',
  RECITATION: 'the answer repeated protected text',
  BLOCKLIST: 'the answer had blocked terms',
  PROHIBITED_CONTENT: 'the answer was prohibited content',
  SPII: 'the answer had sensitive personal information',
  IMAGE_SAFETY: 'its safety filters blocked an image',
  MALFORMED_FUNCTION_CALL: 'the model wrote a function call it could not parse',
  UNEXPECTED_TOOL_CALL: 'the model called a tool that was not offered',
};

/**
 * Google Gemini on its official SDK (@google/genai): function declarations
 * with JSON Schema parameters, streamed answers whose function calls come
 * whole (several at once for parallel calls), thought signatures kept with
 * each call and sent back.
 */
export function createGeminiProvider(connection: ProviderConnection): ModelProvider {
  const baseURL = connection.baseURL ?? GEMINI_DEFAULT_BASE_URL;
  const sdk = onFirstUse(() => import('@google/genai'));
  const client = onFirstUse(async () => {
    const { GoogleGenAI } = await sdk();
    return new GoogleGenAI({
      apiKey: connection.apiKey ?? 'no-key',
      httpOptions: {
        baseUrl: baseURL,
        fetch: connection.fetch,
        timeout: connection.timeoutMs,
        retryOptions: { attempts: connection.maxRetries + 1, initialDelay: 0.5, maxDelay: 8 },
      },
    });
  });
  const failure = failureFor(connection, baseURL);
  const fail = (error: unknown, request?: Parameters<typeof failure>[1]) => failure(geminiErrorShape(error, request?.signal.aborted ?? false), request);

  return {
    async *stream(request) {
      // A structured answer comes as the arguments of a function the model must call (mode ANY: it calls one every turn).
      const answer = request.answerSchema ? answerTool(request.answerSchema) : null;
      const tools = answer ? [...request.tools, answer.definition] : request.tools;
      let finish: string | undefined;
      let calls = 0;
      let usage: GenerateContentResponse['usageMetadata'];
      try {
        const { FunctionCallingConfigMode } = await sdk();
        const stream = await (await client()).models.generateContentStream({
          model: request.model,
          contents: toGeminiContents(request.messages, request.model),
          config: {
            abortSignal: request.signal,
            ...(request.exchangeTag ? { httpOptions: { headers: { ...request.exchangeTag } } } : {}),
            ...(request.system ? { systemInstruction: request.system } : {}),
            ...(request.temperature !== undefined ? { temperature: request.temperature } : {}),
            ...(tools.length > 0
              ? {
                  tools: [{ functionDeclarations: tools.map((tool) => ({ name: tool.name, description: tool.description, parametersJsonSchema: tool.parameters })) }],
                  // The SDK would otherwise run functions it was given itself; Toolbelt runs them.
                  automaticFunctionCalling: { disable: true },
                  ...(answer ? { toolConfig: { functionCallingConfig: { mode: FunctionCallingConfigMode.ANY } } } : {}),
                }
              : {}),
          },
        });
        for await (const chunk of stream) {
          if (chunk.usageMetadata) usage = chunk.usageMetadata;
          const blocked = chunk.promptFeedback?.blockReason;
          if (blocked) throw new ToolbeltError('provider_error', `${connection.displayName} refused the message (${blocked}). Rephrase it, or try another model.`);
          const candidate = chunk.candidates?.[0];
          for (const part of candidate?.content?.parts ?? []) {
            // Thoughts are the model's working, not its answer.
            if (part.text && !part.thought) yield { type: 'text-delta', text: part.text };
            if (part.functionCall) {
              const call = completedCall(part);
              if (answer && call.name === ANSWER_TOOL_NAME) {
                yield { type: 'answer', value: answer.valueOf(call.args) };
                continue;
              }
              calls++;
              yield { type: 'tool-call-delta', callId: call.id, name: call.name, argsDelta: JSON.stringify(call.args) };
              yield { type: 'tool-call', call };
            }
          }
          if (candidate?.finishReason) finish = candidate.finishReason;
        }
      } catch (error) {
        if (error instanceof ToolbeltError) throw error;
        throw fail(error, request);
      }
      if (usage) yield { type: 'usage', inputTokens: usage.promptTokenCount, outputTokens: usage.candidatesTokenCount };
      if (finish === undefined) throw incompleteStream(connection.displayName);
      const stopped = STOPPED_BECAUSE[finish];
      if (stopped) throw new ToolbeltError('provider_error', `${connection.displayName} stopped: ${stopped} (${finish}). Try again, rephrase the message, or pick another model.`);
      yield { type: 'finish', reason: finishReason(finish, calls > 0) };
    },

    async listModels(signal) {
      try {
        const models = [];
        const pager = await (await client()).models.list({ config: { pageSize: 1000, abortSignal: signal } });
        for await (const model of pager) {
          // Embedding and image models are listed too; a chat needs one that generates content.
          if (!model.name || (model.supportedActions && !model.supportedActions.includes('generateContent'))) continue;
          models.push({
            id: model.name.replace(/^models\//, ''),
            ...(model.displayName ? { displayName: model.displayName } : {}),
            ...(model.inputTokenLimit ? { contextTokens: model.inputTokenLimit } : {}),
          });
        }
        return models;
      } catch (error) {
        if ((error as { status?: number }).status === 404) return null;
        throw fail(error);
      }
    },
  };
}

function completedCall(part: Part): CompletedToolCall {
  const call = part.functionCall!;
  const args = call.args && typeof call.args === 'object' && !Array.isArray(call.args) ? call.args : {};
  return {
    id: typeof call.id === 'string' && call.id ? call.id : `${LOCAL_ID_PREFIX}${syntheticCallId()}`,
    name: typeof call.name === 'string' ? call.name : '',
    args,
    ...(typeof part.thoughtSignature === 'string' && part.thoughtSignature ? { signature: part.thoughtSignature } : {}),
  };
}

function finishReason(reason: string, hasToolCalls: boolean): Extract<ModelEvent, { type: 'finish' }>['reason'] {
  // Gemini says STOP when it calls functions: the calls decide.
  if (hasToolCalls) return 'tool_calls';
  if (reason === 'STOP') return 'stop';
  if (reason === 'MAX_TOKENS') return 'length';
  return 'other';
}

/**
 * The SDK's errors in the shape providerError reads: ApiError carries the
 * status and the server's JSON body in its message; a failed fetch is a
 * TypeError with the socket's error as its cause.
 */
function geminiErrorShape(error: unknown, cancelled: boolean): unknown {
  if (!(error instanceof Error)) return error;
  const status = (error as { status?: unknown }).status;
  if (typeof status === 'number') {
    let said = error.message;
    try {
      // The body is the message, or follows "got status: …. " for an error inside a stream.
      const body = JSON.parse(error.message.slice(Math.max(0, error.message.indexOf('{')))) as { error?: { message?: unknown } };
      if (typeof body.error?.message === 'string') said = body.error.message;
    } catch {
      // Not JSON: the message as it is.
    }
    return { name: 'ApiError', status, message: said };
  }
  // The SDK aborts its own request when the timeout passes: a cancel only when the person cancelled.
  if (error.name === 'AbortError') return cancelled ? error : { name: 'APIConnectionTimeoutError', message: error.message };
  if (error instanceof TypeError && error.cause) return { name: 'APIConnectionError', message: error.message, cause: error.cause };
  return error;
}

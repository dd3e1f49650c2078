import { startFakeModelServer, type FakeModelServer, type FakeReply, type SseEvent } from './fake-model-server.js';

/** Gemini's streaming route names the model: /v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse. */
export const GEMINI_STREAM_PATH = /^\/v1beta\/models\/([^/:]+):streamGenerateContent$/;

export interface GeminiCall {
  name?: string;
  args?: Record<string, unknown>;
  /** Gemini API models before 3 send no id; later ones may. */
  id?: string;
  thoughtSignature?: string;
}

interface ChunkOptions {
  finishReason?: string;
  usage?: { prompt: number; output: number };
}

/** One streamed chunk as the Gemini API sends it: one candidate's new parts, usage, the model version. */
export function geminiChunk(parts: Record<string, unknown>[], options: ChunkOptions = {}): SseEvent {
  const usage = options.usage ?? { prompt: 9, output: 4 };
  return {
    data: {
      candidates: [{ content: { parts, role: 'model' }, ...(options.finishReason ? { finishReason: options.finishReason } : {}), index: 0 }],
      usageMetadata: { promptTokenCount: usage.prompt, candidatesTokenCount: usage.output, totalTokenCount: usage.prompt + usage.output, promptTokensDetails: [{ modality: 'TEXT', tokenCount: usage.prompt }] },
      modelVersion: 'gemini-2.5-flash',
      responseId: 'fake-response',
    },
  };
}

function callPart(call: GeminiCall): Record<string, unknown> {
  return {
    functionCall: { ...(call.name !== undefined ? { name: call.name } : {}), args: call.args ?? {}, ...(call.id ? { id: call.id } : {}) },
    ...(call.thoughtSignature ? { thoughtSignature: call.thoughtSignature } : {}),
  };
}

/**
 * A whole streamed answer: each text piece its own chunk, then every
 * function call whole in one chunk (parallel calls side by side). The last
 * chunk carries the finish reason — STOP when the model calls functions too.
 * Lines end in CRLF, as Google's servers send them.
 */
export function geminiReply(parts: { text?: string[]; calls?: GeminiCall[]; finishReason?: string }, options: { delayMs?: number; finish?: boolean } = {}): FakeReply {
  const contents: Record<string, unknown>[][] = (parts.text ?? []).map((text) => [{ text }]);
  if (parts.calls?.length) contents.push(parts.calls.map(callPart));
  if (contents.length === 0) contents.push([]);
  const finishReason = options.finish === false ? undefined : (parts.finishReason ?? 'STOP');
  const events = contents.map((chunk, index) => (index === contents.length - 1 && finishReason ? geminiChunk(chunk, { finishReason, usage: { prompt: 9, output: 7 } }) : geminiChunk(chunk)));
  return { kind: 'sse', delayMs: options.delayMs, lineEnd: '\r\n', events };
}

/** An error as the Gemini API answers it (also the shape of an error chunk inside a stream). */
export function geminiError(code: number, status: string, message: string) {
  return { error: { code, message, status } };
}

export function startFakeGemini(replies: FakeReply[] = [], options: { models?: { name: string; displayName?: string; methods?: string[]; inputTokenLimit?: number }[] } = {}): Promise<FakeModelServer> {
  return startFakeModelServer({
    completionPath: GEMINI_STREAM_PATH,
    modelsPath: '/v1beta/models',
    replies,
    models: options.models && {
      models: options.models.map((model) => ({
        name: `models/${model.name}`,
        version: '001',
        displayName: model.displayName ?? model.name,
        inputTokenLimit: model.inputTokenLimit ?? 1_048_576,
        outputTokenLimit: 65_536,
        supportedGenerationMethods: model.methods ?? ['generateContent', 'countTokens'],
      })),
    },
  });
}

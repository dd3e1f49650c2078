import type { ChatMessage } from '../../shared/schemas/chat.js';
import type { ExchangeTag } from './raw-exchange.js';

/** What a provider's answers taught about a model (capabilities.ts reads it). */
export interface LearnedAbout {
  toolsRefusal?: string;
  /** The server refused a picture for this model: pictures are left out of its requests, with a sentence saying so. */
  picturesRefusal?: string;
  streamsToolsWhole?: boolean;
  /** The input size the server's model list gave. */
  listedContextTokens?: number;
}

/** A tool as the model sees it. */
export interface ToolDefinition {
  name: string;
  description: string;
  /** JSON Schema of the arguments (an object schema). */
  parameters: Record<string, unknown>;
  /** Left out of the model's prompt until the provider's own tool search finds it (only for providers with `nativeToolSearch`). */
  deferred?: boolean;
}

export interface ModelRequest {
  model: string;
  system?: string;
  temperature?: number;
  /** The chat so far; each adapter turns it into its wire format. */
  messages: readonly ChatMessage[];
  tools: readonly ToolDefinition[];
  parallelToolCalls: boolean;
  /** The final answer must be JSON matching this schema: each adapter holds the model to it as its API allows. */
  answerSchema?: Record<string, unknown>;
  signal: AbortSignal;
  /** Sent as headers so that the run's raw exchange records the request (recordExchanges). */
  exchangeTag?: ExchangeTag;
}

/** A tool call whose arguments are complete: its block ended. */
export interface CompletedToolCall {
  id: string;
  name: string;
  args: Record<string, unknown>;
  /** The argument text when it was not a JSON object; args is then {}. */
  rawArgs?: string;
  /** An opaque token the provider wants back with the call in later turns (Gemini's thought signature). */
  signature?: string;
}

/** What a provider streams back, in the engine's terms. */
export type ModelEvent =
  | { type: 'text-delta'; text: string }
  | { type: 'tool-call-delta'; callId: string; name: string; argsDelta: string }
  | { type: 'tool-call'; call: CompletedToolCall }
  | { type: 'usage'; inputTokens?: number; outputTokens?: number }
  /** The final answer as a value, from a provider that forced it through the answer tool. */
  | { type: 'answer'; value: unknown }
  /** A block the provider ran on its own side (Anthropic's tool search), to be sent back as it came in later turns. */
  | { type: 'server-block'; block: Record<string, unknown> }
  | { type: 'finish'; reason: 'stop' | 'tool_calls' | 'length' | 'other' };

export interface ModelInfo {
  id: string;
  displayName?: string;
  /** How many tokens of input it takes, when the server's list says. */
  contextTokens?: number;
}

export interface ModelProvider {
  /** Streams one model turn. Ends with a `finish` event or throws a ToolbeltError. */
  stream(request: ModelRequest): AsyncIterable<ModelEvent>;
  /** The server's models, or null when the server cannot list them. */
  listModels(signal: AbortSignal): Promise<ModelInfo[] | null>;
  /** What this adapter learned about a model from the server's answers so far. */
  learned?(model: string): LearnedAbout;
  /** Whether the provider searches deferred tools itself for this model (Anthropic's tool search tool). */
  nativeToolSearch?(model: string): boolean;
}

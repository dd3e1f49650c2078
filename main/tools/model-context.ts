import { contentBlocksForModel, isContentBlocks } from '../../shared/mcp/content-blocks.js';
import type { AssistantMessage, ChatMessage, ToolCall } from '../../shared/schemas/chat.js';
import { toolKey } from './exposure.js';

/** What the model reads of one tool result unless the chat sets another limit for the tool. */
const DEFAULT_RESULT_LIMIT = 16_000;

/**
 * The conversation as the model is sent it: a tool result longer than its
 * limit is cut, with a sentence saying how big it was; the chat keeps the
 * whole value (the card shows it).
 */
export function withResultsCut(messages: readonly ChatMessage[], limitOf: (call: ToolCall) => number): ChatMessage[] {
  return messages.map((message) => {
    if (message.role === 'tool-run') {
      const call = cutCall(message.call, limitOf(message.call));
      return call === message.call ? message : { ...message, call };
    }
    if (message.role !== 'assistant' || message.toolCalls.length === 0) return message;
    const toolCalls = message.toolCalls.map((call) => cutCall(call, limitOf(call)));
    if (toolCalls.every((call, at) => call === message.toolCalls[at])) return message;
    const cut: AssistantMessage = { ...message, toolCalls };
    return cut;
  });
}

/** Results the person may drop to make room: every one before the latest turn's, not dropped yet. */
export function droppableCalls(messages: readonly ChatMessage[]): ToolCall[] {
  const latest = messages.findLastIndex((message) => message.role === 'assistant' && message.toolCalls.length > 0);
  return messages.flatMap((message, index) => {
    if (latest !== -1 && index >= latest) return [];
    const calls = message.role === 'assistant' ? message.toolCalls : message.role === 'tool-run' ? [message.call] : [];
    // Failures are a sentence each: only results take room worth dropping.
    return calls.filter((call) => call.result?.ok && !call.contextDropped);
  });
}

/** What a picture costs at most once the provider scales it down (Anthropic's ~1,600 tokens; OpenAI's high detail is about as much). */
const PICTURE_TOKENS = 1_600;

/** A rough token count of what the model is sent: about four characters a token, as the chat header estimates. */
export function estimateTokens(parts: { system?: string; messages: readonly ChatMessage[]; definitions: readonly unknown[] }): { messageTokens: number; toolTokens: number } {
  let characters = parts.system?.length ?? 0;
  for (const message of parts.messages) {
    if (message.role === 'user')
      characters += message.content.length + (message.attachments ?? []).reduce((sum, attachment) => sum + attachment.text.length + (attachment.images?.length ?? 0) * PICTURE_TOKENS * 4, 0);
    else if (message.role === 'assistant') characters += message.content.length + message.toolCalls.reduce((sum, call) => sum + callCharacters(call), 0);
    else if (message.shareWithModel) characters += callCharacters(message.call);
  }
  return { messageTokens: Math.ceil(characters / 4), toolTokens: Math.ceil(JSON.stringify(parts.definitions).length / 4) };
}

function callCharacters(call: ToolCall): number {
  const result = call.result ? (call.result.ok ? resultText(call.result.value).length : call.result.error.message.length) : 0;
  return call.name.length + JSON.stringify(call.args).length + result + 40;
}

/** A chat's limit for each tool, by the tool's address; the default for the rest. */
export function resultLimits(selected: readonly { bundleID: string; slug: string; version: string; resultLimit?: number }[]): (call: ToolCall) => number {
  const limits = new Map(selected.filter((entry) => entry.resultLimit !== undefined).map((entry) => [toolKey(entry), entry.resultLimit!]));
  return (call) => (call.tool ? limits.get(toolKey(call.tool)) : undefined) ?? DEFAULT_RESULT_LIMIT;
}

/** The text the model would read for a value (as toolResultText makes it: content blocks as their text, images as notes). */
function resultText(value: unknown): string {
  return typeof value === 'string' ? value : isContentBlocks(value) ? contentBlocksForModel(value) : (JSON.stringify(value) ?? 'null');
}

/** The call as the model reads it: the same object when its result fits (each result made into text once); a dropped result is one line. */
function cutCall(call: ToolCall, limit: number): ToolCall {
  if (call.contextDropped && call.result?.ok) {
    const size = Math.max(1, Math.round(resultText(call.result.value).length / 1000));
    const label = call.tool ? call.tool.displayName : call.name;
    return { ...call, result: { ...call.result, value: `[result of ${label}, ${size.toLocaleString('en')} KB, removed from context]` } };
  }
  if (!call.result?.ok) return call;
  const text = resultText(call.result.value);
  if (text.length <= limit) return call;
  const size = `${Math.round(text.length / 1000).toLocaleString('en')} KB`;
  return { ...call, result: { ...call.result, value: `${text.slice(0, limit)}\n[… cut for the model: this result is ${size}; the first ${Math.round(limit / 1000)} KB are above. The whole value is in the chat.]` } };
}

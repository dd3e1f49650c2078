import type { LoadedFile } from '../../shared/schemas/person-file.js';
import { blockAudience, contentBlocksForModel, isContentBlocks } from '../../shared/mcp/content-blocks.js';
import { EXPOSED_NAME_PATTERN } from '../../shared/schemas/chat.js';
import type { ToolCall, ToolRunMessage, UserMessage } from '../../shared/schemas/chat.js';
import { MAX_PICTURE_CHARS, PICTURE_TYPES, type AttachedImage } from '../../shared/schemas/attached-image.js';

/** How a finished call reads to the model. Providers without an error flag see the "Error" prefix. */
export function toolResultText(call: ToolCall): { text: string; isError: boolean } {
  const result = call.result;
  if (call.status === 'denied') {
    // Denied in advance by the chat's settings: the sentence says so and what to do.
    if (result && !result.ok && result.error.code === 'tool_denied') return { text: result.error.message, isError: true };
    return { text: `The user denied this call.${call.note ? ` Their reason: ${call.note}` : ''}`, isError: true };
  }
  if (!result) return { text: 'This call did not run.', isError: true };
  const read = readResult(call, result);
  // What the person's hooks said about the call, after what the call itself said.
  return result.hookContext ? { ...read, text: `${read.text}\n\n[From the person's hooks: ${result.hookContext}]` } : read;
}

function readResult(call: ToolCall, result: NonNullable<ToolCall['result']>): { text: string; isError: boolean } {
  if (result.ok) {
    // Content blocks beside a structured value are what the model reads (pictures named, then sent as pictures).
    const value = isContentBlocks(result.content) ? result.content : result.value;
    const text = typeof value === 'string' ? value : isContentBlocks(value) ? contentBlocksForModel(value) : (JSON.stringify(value) ?? 'null');
    // What the tool's app shows the person now (MCP Apps' update-model-context), after the result it was made from.
    const said = call.appContext ? `${text}\n\n[What its app shows now: ${call.appContext}]` : text;
    // Taken though it does not match what the tool says it answers: the model knows which parts to doubt.
    return { text: result.outputMismatch ? `${said}\n\n[Warning: ${result.outputMismatch.message}]` : said, isError: false };
  }
  // What the tool answered, when the error carries it (an API's error body, an answer its outputSchema refused):
  // the model reads why, not only that it failed.
  const { code, message, snippet, status } = result.error;
  const answered = snippet ? `\n\nWhat it answered${status !== undefined ? ` (HTTP ${status})` : ''}: ${snippet}` : '';
  return { text: `Error (${code}): ${message}${answered}`, isError: true };
}

/**
 * The pictures a call's result carries for the model (an MCP tool's image blocks: a screenshot, a chart), in the
 * formats every provider with vision takes and within their size limit; the text of the result names them too.
 * Blocks a server marks for the person only stay with the person.
 */
export function toolResultImages(call: ToolCall): AttachedImage[] {
  return mediaBlocks(call, 'image', PICTURE_TYPES).map((block) => ({ mimeType: block.mimeType as AttachedImage['mimeType'], data: block.data }));
}

/**
 * Audio formats Gemini takes inline in a turn. Of the providers here only
 * Gemini hears audio in any model's conversation (OpenAI's chat takes it only
 * in a user message to its audio models, Anthropic not at all); the others
 * read the clip's name, type and size.
 */
export const GEMINI_AUDIO_TYPES = ['audio/wav', 'audio/x-wav', 'audio/mp3', 'audio/mpeg', 'audio/aiff', 'audio/aac', 'audio/ogg', 'audio/flac'] as const;

/** The audio clips a call's result carries for a model that hears, within the size a picture may have. */
export function toolResultAudio(call: ToolCall): { mimeType: string; data: string }[] {
  return mediaBlocks(call, 'audio', GEMINI_AUDIO_TYPES).map((block) => ({ mimeType: block.mimeType, data: block.data }));
}

/** A result's image or audio blocks meant for the model, in the given formats and within the size limit. */
function mediaBlocks(call: ToolCall, kind: 'image' | 'audio', types: readonly string[]): { mimeType: string; data: string }[] {
  const result = call.result?.ok && !call.contextDropped ? call.result : undefined;
  const value = isContentBlocks(result?.content) ? result.content : result?.value;
  if (!isContentBlocks(value)) return [];
  return value.flatMap((block) =>
    block.type === kind && blockAudience(block).model && types.includes(block.mimeType) && block.data.length <= MAX_PICTURE_CHARS ? [{ mimeType: block.mimeType, data: block.data }] : [],
  );
}

/** What the person said, then what they attached, each marked with where it came from. */
export function userMessageText(message: UserMessage): string {
  const attached = (message.attachments ?? []).map(
    (attachment) =>
      `<attachment kind="${attachment.kind}" server="${attachment.server}" ref="${attachment.ref.replaceAll('"', '%22')}" title="${attachment.title.replaceAll('"', "'")}">\n${attachment.text}\n</attachment>`,
  );
  const hooks = message.hookContext ? [`[From the person's hooks: ${message.hookContext}]`] : [];
  return [message.content, ...attached, ...filesOf(message).map(fileText), ...hooks].filter((part) => part !== '').join('\n\n');
}

/** The person's files as a request sends them (read back by `person-files.ts`). */
function filesOf(message: UserMessage): LoadedFile[] {
  return message.files ?? [];
}

/** A file in the message's text: a text file whole, a picture or a PDF named (its bytes follow as their own part), one left out with why. */
function fileText(file: LoadedFile): string {
  const name = file.name.replaceAll('"', "'");
  if (file.leftOut) return `<file name="${name}" type="${file.mediaType}" left-out="${file.leftOut}"/>`;
  if (file.text !== undefined) return `<file name="${name}" type="${file.mediaType}">\n${file.text}\n</file>`;
  return `<file name="${name}" type="${file.mediaType}"/>`;
}

/** The pictures the person's attachments and files carry, in order: each adapter sends them after the message's text. */
export function userMessageImages(message: UserMessage): AttachedImage[] {
  const pictures = filesOf(message).flatMap((file) => (file.kind === 'picture' && file.data ? [{ mimeType: file.mediaType as AttachedImage['mimeType'], data: file.data }] : []));
  return [...(message.attachments ?? []).flatMap((attachment) => attachment.images ?? []), ...pictures];
}

/** The person's PDFs, for the APIs that read documents: each adapter sends them after the pictures. */
export function userMessageDocuments(message: UserMessage): { name: string; data: string }[] {
  return filesOf(message).flatMap((file) => (file.kind === 'pdf' && file.data ? [{ name: file.name, data: file.data }] : []));
}

/** A palette run the person chose to share, told to the model as context. */
export function toolRunContext(message: ToolRunMessage): string {
  const { call } = message;
  const { text, isError } = toolResultText(call);
  const label = call.tool ? `${call.tool.displayName} (${call.name})` : call.name;
  return `[I ran the tool ${label} myself with arguments ${JSON.stringify(call.args)}. ${isError ? 'It failed' : 'Result'}: ${text}]`;
}

const WIRE_TOOL_NAME = new RegExp(EXPOSED_NAME_PATTERN);

/**
 * A past call's name as it goes back to the provider: both APIs refuse a
 * history with a tool name they would not accept (empty, too long, odd
 * characters), which a model's malformed call can have. Such a call failed;
 * its result tells the model what it sent.
 */
export function wireToolName(name: string): string {
  return WIRE_TOOL_NAME.test(name) ? name : 'unknown_tool';
}

/** OpenAI-style call ids for servers that send none: 9 letters and digits. */
export function syntheticCallId(): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
  const bytes = crypto.getRandomValues(new Uint8Array(9));
  return Array.from(bytes, (byte) => alphabet[byte % alphabet.length]).join('');
}

/** Argument text as the model finished it: empty is {}, anything but an object is kept raw. */
export function parseArguments(text: string): { args: Record<string, unknown>; rawArgs?: string } {
  const trimmed = text.trim();
  if (trimmed === '') return { args: {} };
  try {
    const parsed: unknown = JSON.parse(trimmed);
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) return { args: parsed as Record<string, unknown> };
  } catch {
    // Kept raw below; the engine tells the model its arguments were not JSON.
  }
  return { args: {}, rawArgs: text };
}

import type { Chat, ToolCall } from '../schemas/chat.js';

/** A fence longer than any run of backticks in the text, so the text cannot close it. */
function fence(text: string, language = ''): string {
  const longest = Math.max(2, ...(text.match(/`+/g) ?? []).map((run) => run.length));
  const marks = '`'.repeat(longest + 1);
  return `${marks}${language}\n${text}\n${marks}`;
}

function json(value: unknown): string {
  return JSON.stringify(value, null, 2) ?? 'null';
}

function callMarkdown(call: ToolCall, who: string): string {
  const name = call.tool ? `${call.tool.displayName} (\`${call.name}\`)` : `\`${call.name}\``;
  const parts = [`**${who}** ${name} — ${call.status.replace('_', ' ')}`, fence(json(call.args), 'json')];
  if (call.result?.ok) parts.push('Result:', fence(typeof call.result.value === 'string' ? call.result.value : json(call.result.value), typeof call.result.value === 'string' ? '' : 'json'));
  else if (call.result) parts.push(`Error (\`${call.result.error.code}\`): ${call.result.error.message}`);
  if (call.note) parts.push(`_${call.note}_`);
  return parts.join('\n\n');
}

/**
 * A chat as a Markdown document a person can read or share: the settings
 * that shaped it, then each message, tool calls with their arguments and
 * results in fenced blocks.
 */
export function chatToMarkdown(chat: Chat, filePaths?: ReadonlyMap<string, string>): string {
  const lines = [`# ${chat.title}`, '', `- Provider: ${chat.providerId}`, `- Model: ${chat.model || '(none picked)'}`, `- Started: ${chat.createdAt}`];
  if (chat.temperature !== undefined) lines.push(`- Temperature: ${chat.temperature}`);
  if (chat.system) lines.push('', '## System prompt', '', fence(chat.system));
  const sections: string[] = [lines.join('\n')];
  for (const message of chat.messages) {
    if (message.role === 'user') {
      const attached = (message.attachments ?? []).map((attachment) => `Attached ${attachment.kind} **${attachment.title}** from ${attachment.server}:\n\n${fence(attachment.text)}`);
      // The person's files: linked where the export carries them beside it, else by name (their bytes stay in the data folder).
      const files = (message.files ?? []).map((file) => {
        const beside = filePaths?.get(file.sha256);
        if (!beside) return `Attached file **${file.name}** (${file.mediaType}, ${file.bytes} bytes, SHA-256 ${file.sha256.slice(0, 12)}…)`;
        return `Attached file ${file.kind === 'picture' ? '!' : ''}[${file.name.replace(/[[\]\\]/g, '\\$&')}](<${beside}>) (${file.mediaType}, ${file.bytes} bytes)`;
      });
      sections.push(['## You', message.content, ...attached, ...files].filter(Boolean).join('\n\n'));
    } else if (message.role === 'assistant') {
      const calls = message.toolCalls.map((call) => callMarkdown(call, 'Tool call'));
      const stopped = message.finishReason === 'cancelled' ? '_Stopped._' : message.finishReason === 'interrupted' ? '_Interrupted when the app stopped._' : '';
      sections.push([`## ${message.model || 'Assistant'}`, message.content, ...calls, stopped].filter(Boolean).join('\n\n'));
    } else {
      sections.push(['## You ran a tool', callMarkdown(message.call, 'Ran'), message.shareWithModel ? '' : '_Not shown to the model._'].filter(Boolean).join('\n\n'));
    }
  }
  return `${sections.join('\n\n')}\n`;
}

/** A name Windows keeps for a device, with or without an extension: `nul.txt` cannot be unpacked there. */
const WINDOWS_DEVICE = /^(?:con|prn|aux|nul|com[0-9¹²³]|lpt[0-9¹²³])(?:\.|$)/i;

/**
 * Where each of the chat's files goes in an export that carries them (`files/<its name>`): one path per file however
 * often it was sent, names made safe for any file system, a name two different files share told apart by their hash.
 */
export function exportFilePaths(chat: Chat): Map<string, string> {
  const paths = new Map<string, string>();
  const taken = new Set<string>();
  for (const message of chat.messages) {
    if (message.role !== 'user') continue;
    for (const file of message.files ?? []) {
      if (paths.has(file.sha256)) continue;
      // Its own name only (what follows the last slash), without what a file system refuses or hides: Windows also
      // refuses a name ending in a dot or a space, and its device names (CON, NUL, COM1…) whatever their extension.
      const trimmed = (file.name.split(/[\\/]/).pop() ?? '').replace(/[\\/:*?"<>|\p{Cc}]+/gu, '-').replace(/^[.\s]+/, '').slice(-120).replace(/[.\s]+$/, '') || 'file';
      const safe = WINDOWS_DEVICE.test(trimmed) ? `_${trimmed}` : trimmed;
      const dot = safe.lastIndexOf('.');
      const name = taken.has(safe.toLowerCase()) ? (dot > 0 ? `${safe.slice(0, dot)}-${file.sha256.slice(0, 8)}${safe.slice(dot)}` : `${safe}-${file.sha256.slice(0, 8)}`) : safe;
      taken.add(name.toLowerCase());
      paths.set(file.sha256, `files/${name}`);
    }
  }
  return paths;
}

/** A file name from the chat's title: letters, digits and dashes, never empty. */
export function exportFileName(title: string, extension: 'md' | 'json' | 'zip'): string {
  const base = title
    .replace(/[^\p{L}\p{N}]+/gu, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 80);
  return `${base || 'chat'}.${extension}`;
}

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
export function chatToMarkdown(chat: Chat): string {
  const lines = [`# ${chat.title}`, '', `- Provider: ${chat.providerId}`, `- Model: ${chat.model || '(none picked)'}`, `- Started: ${chat.createdAt}`];
  if (chat.temperature !== undefined) lines.push(`- Temperature: ${chat.temperature}`);
  if (chat.system) lines.push('', '## System prompt', '', fence(chat.system));
  const sections: string[] = [lines.join('\n')];
  for (const message of chat.messages) {
    if (message.role === 'user') {
      const attached = (message.attachments ?? []).map((attachment) => `Attached ${attachment.kind} **${attachment.title}** from ${attachment.server}:\n\n${fence(attachment.text)}`);
      // The person's files by name and kind: their bytes stay in the data folder (`files/<sha256>`).
      const files = (message.files ?? []).map((file) => `Attached file **${file.name}** (${file.mediaType}, ${file.bytes} bytes, SHA-256 ${file.sha256.slice(0, 12)}…)`);
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

/** A file name from the chat's title: letters, digits and dashes, never empty. */
export function exportFileName(title: string, extension: 'md' | 'json'): string {
  const base = title
    .replace(/[^\p{L}\p{N}]+/gu, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 80);
  return `${base || 'chat'}.${extension}`;
}

import { describe, expect, it } from 'vitest';
import { blankChat } from './chat-calls.js';
import { chatToMarkdown, exportFileName, exportFilePaths } from './chat-markdown.js';
import type { Chat } from '../schemas/chat.js';

const at = '2026-11-24T10:00:00.000Z';
const chat: Chat = {
  ...blankChat({ id: '019a0000-0000-7000-8000-000000000001', title: 'Weather ```talk```', providerId: 'openai', model: 'gpt-x', createdAt: at, system: 'Be brief.', temperature: 0.2 }),
  messages: [
    {
      id: '019a0000-0000-7000-8000-000000000002',
      role: 'user',
      content: 'Weather in Oslo?',
      files: [{ name: 'sky.png', kind: 'picture', mediaType: 'image/png', sha256: 'ab'.repeat(32), bytes: 2048 }],
      createdAt: at,
    },
    {
      id: '019a0000-0000-7000-8000-000000000003',
      role: 'assistant',
      content: 'Checking.',
      model: 'gpt-x',
      createdAt: at,
      finishReason: 'tool_calls',
      toolCalls: [
        { id: 'c1', name: 'weather', args: { city: 'Oslo' }, status: 'succeeded', result: { ok: true, value: { temp: 21 }, durationMs: 5, attempts: 1 } },
        { id: 'c2', name: 'bad', args: {}, status: 'failed', result: { ok: false, error: { code: 'http_error', message: 'HTTP 500' }, durationMs: 5, attempts: 1 } },
      ],
    },
    { id: '019a0000-0000-7000-8000-000000000004', role: 'assistant', content: 'Use ```code``` here.', model: 'gpt-x', createdAt: at, toolCalls: [], finishReason: 'cancelled' },
  ],
};

describe('a chat as Markdown', () => {
  it('has the settings, each message under who said it, and tool calls with arguments and results', () => {
    const markdown = chatToMarkdown(chat);
    expect(markdown).toContain('# Weather ```talk```\n\n- Provider: openai\n- Model: gpt-x');
    expect(markdown).toContain('- Temperature: 0.2');
    expect(markdown).toContain('## System prompt\n\n```\nBe brief.\n```');
    expect(markdown).toContain('## You\n\nWeather in Oslo?\n\nAttached file **sky.png** (image/png, 2048 bytes, SHA-256 abababababab…)');
    expect(markdown).toContain('**Tool call** `weather` — succeeded\n\n```json\n{\n  "city": "Oslo"\n}\n```\n\nResult:\n\n```json\n{\n  "temp": 21\n}\n```');
    expect(markdown).toContain('Error (`http_error`): HTTP 500');
    expect(markdown).toContain('Use ```code``` here.\n\n_Stopped._');
  });

  it('fences text with backticks in a longer fence so it cannot break out', () => {
    const withFence: Chat = { ...chat, system: 'a ```` b', messages: [] };
    expect(chatToMarkdown(withFence)).toContain('`````\na ```` b\n`````');
  });

  it('names the file after the title, safely', () => {
    expect(exportFileName('Weather in Oslo?', 'md')).toBe('Weather-in-Oslo.md');
    expect(exportFileName('../../etc/passwd', 'json')).toBe('etc-passwd.json');
    expect(exportFileName('Über Café 東京', 'md')).toBe('Über-Café-東京.md');
    expect(exportFileName('???', 'md')).toBe('chat.md');
  });

  it('carries files beside it at safe paths, one per file however often sent, names two files share told apart, and links them', () => {
    const file = (name: string, byte: string) => ({ name, kind: 'text' as const, mediaType: 'text/plain', sha256: byte.repeat(32), bytes: 3 });
    const withFiles: Chat = {
      ...chat,
      messages: [
        ...chat.messages,
        { id: '019a0000-0000-7000-8000-000000000005', role: 'user', content: 'More', createdAt: at, files: [file('../../notes.txt', 'cd'), file('NOTES.txt', 'ef'), file('sky.png', 'ab')] },
      ],
    };
    const paths = exportFilePaths(withFiles);
    expect([...paths.values()]).toEqual(['files/sky.png', 'files/notes.txt', `files/NOTES-${'ef'.repeat(4)}.txt`]);
    const markdown = chatToMarkdown(withFiles, paths);
    expect(markdown).toContain('Attached file ![sky.png](<files/sky.png>) (image/png, 2048 bytes)');
    expect(markdown).toContain('Attached file [../../notes.txt](<files/notes.txt>)');
  });

  it('never names a file Windows cannot unpack: device names and trailing dots or spaces', () => {
    const file = (name: string, byte: string) => ({ name, kind: 'text' as const, mediaType: 'text/plain', sha256: byte.repeat(32), bytes: 3 });
    const names = ['CON', 'nul.txt', 'Com1.log', 'report. . ', 'aux.tar.gz', 'console.txt', '...'];
    const withFiles: Chat = {
      ...chat,
      messages: [{ id: '019a0000-0000-7000-8000-000000000006', role: 'user', content: 'Files', createdAt: at, files: names.map((name, index) => file(name, `${index}a`)) }],
    };
    expect([...exportFilePaths(withFiles).values()]).toEqual(['files/_CON', 'files/_nul.txt', 'files/_Com1.log', 'files/report', 'files/_aux.tar.gz', 'files/console.txt', 'files/file']);
  });
});

import { execFileSync } from 'node:child_process';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { startChatHarness } from '../../testing/harness/chat-harness.js';
import { anthropicReply, startFakeAnthropic } from '../../testing/servers/fake-anthropic.js';
import { geminiReply, startFakeGemini } from '../../testing/servers/fake-gemini.js';
import { openAiTextReply, startFakeOpenAi } from '../../testing/servers/fake-openai.js';
import type { UserMessage } from '../../shared/schemas/chat.js';
import { tinyPdf } from '../../testing/data/tiny-pdf.js';
import { TINY_JPEG, TINY_PNG } from '../../testing/data/tiny-pictures.js';
import { fileReaderOf } from '../providers/capabilities.js';
import { toOpenAiMessages } from '../providers/openai.js';
import { PersonFiles } from './person-files.js';

/** A PNG of `width` × `height` as far as its header goes (models are never asked to draw it here). */
function png(width: number, height: number): Buffer {
  const header = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex');
  const size = Buffer.alloc(8);
  size.writeUInt32BE(width, 0);
  size.writeUInt32BE(height, 4);
  return Buffer.concat([header, size, Buffer.from('0806000000', 'hex'), Buffer.alloc(40)]);
}
const PICTURE = TINY_PNG;
const PDF = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n');
const CSV = Buffer.from('city,temp\nLima,19\nOslo,-3\n');
const file = (name: string, mediaType: string, bytes: Buffer) => ({ kind: 'file' as const, name, mediaType, dataBase64: bytes.toString('base64') });

async function kept(dataDir: string): Promise<string[]> {
  return readdir(path.join(dataDir, 'files')).catch(() => []);
}

describe("the person's own files in a chat", () => {
  it('reach Anthropic as a picture, a document and a text file with its name; kept once however often sent, sent again on Regenerate, removed with the chat', async () => {
    const h = await startChatHarness();
    const server = await startFakeAnthropic([anthropicReply({ text: ['A chart.'] }), anthropicReply({ text: ['Still a chart.'] }), anthropicReply({ text: ['Again.'] })]);
    onTestFinished(() => server.close());
    await h.provider('claude', { kind: 'anthropic', displayName: 'Claude', baseURL: server.url, apiKey: 'sk-ant' });
    const chat = await h.chat({ providerId: 'claude' });
    await h.call('chats.send', { chatId: chat.id, content: '', attachments: [file('chart.png', 'image/png', PICTURE), file('report.pdf', 'application/pdf', PDF), file('temps.csv', 'text/csv', CSV)] });
    const done = await h.settled(chat.id);
    // Named by its first file when the message has no words.
    expect(done.title).toBe('chart.png');
    const sent = (done.messages[0] as UserMessage).files!;
    expect(sent.map((each) => [each.name, each.kind, each.mediaType, each.bytes])).toEqual([
      ['chart.png', 'picture', 'image/png', PICTURE.length],
      ['report.pdf', 'pdf', 'application/pdf', PDF.length],
      ['temps.csv', 'text', 'text/csv', CSV.length],
    ]);
    const [first] = server.requests[0]!.body.messages as { content: { type: string; text?: string; source?: unknown; title?: string }[] }[];
    expect(first!.content.map((block) => block.type)).toEqual(['text', 'image', 'document']);
    expect(first!.content[0]!.text).toContain('<file name="temps.csv" type="text/csv">\ncity,temp\nLima,19\nOslo,-3\n\n</file>');
    expect(first!.content[0]!.text).toContain('<file name="chart.png" type="image/png"/>');
    expect(first!.content[1]!.source).toEqual({ type: 'base64', media_type: 'image/png', data: PICTURE.toString('base64') });
    expect(first!.content[2]).toMatchObject({ title: 'report.pdf', source: { type: 'base64', media_type: 'application/pdf', data: PDF.toString('base64') } });

    // The same picture again: one copy in the data folder.
    await h.call('chats.send', { chatId: chat.id, content: 'And this?', attachments: [file('again.png', 'image/png', PICTURE)] });
    await h.settled(chat.id);
    expect((await kept(h.dataDir)).sort()).toHaveLength(3);
    // Regenerate sends the message's files again.
    await h.call('chats.regenerate', { chatId: chat.id });
    await h.settled(chat.id);
    const again = server.requests[2]!.body.messages as { content: { type: string }[] }[];
    expect(again.at(-1)!.content.map((block) => block.type)).toEqual(['text', 'image']);
    // The window shows a file a message holds; one no message holds is not handed out.
    const shown = await h.call('chats.file', { chatId: chat.id, sha256: sent[2]!.sha256 });
    expect(Buffer.from(shown.dataBase64, 'base64').toString()).toBe(CSV.toString());
    expect(await h.failure('chats.file', { chatId: chat.id, sha256: '0'.repeat(64) })).toMatchObject({ code: 'not_found' });

    // A second chat holds the picture too: removing the first keeps it, removing both removes everything.
    const other = await h.chat({ providerId: 'claude' });
    await h.call('chats.send', { chatId: other.id, content: 'Look', attachments: [file('same.png', 'image/png', PICTURE)] });
    await h.settled(other.id);
    await h.call('chats.delete', { chatId: chat.id });
    expect(await kept(h.dataDir)).toEqual([sent[0]!.sha256]);
    await h.call('chats.delete', { chatId: other.id });
    expect(await kept(h.dataDir)).toEqual([]);
  });

  it('reach an OpenAI-compatible server (Ollama, LM Studio) as a picture and the PDF’s text, and Gemini as inline data', async () => {
    const h = await startChatHarness();
    const openai = await startFakeOpenAi([openAiTextReply(['Seen.'])]);
    const gemini = await startFakeGemini([geminiReply({ text: ['Seen.'] })]);
    onTestFinished(async () => {
      await Promise.all([openai.close(), gemini.close()]);
    });
    await h.provider('gpt', { kind: 'openai', displayName: 'GPT', baseURL: `${openai.url}/v1`, apiKey: 'sk-1' });
    await h.provider('gem', { kind: 'gemini', displayName: 'Gemini', baseURL: gemini.url, apiKey: 'g-1' });
    const files = [file('chart.png', 'image/png', PICTURE), file('report.pdf', 'application/pdf', tinyPdf('Revenue rose 12 percent'))];
    for (const providerId of ['gpt', 'gem']) {
      const chat = await h.chat({ providerId, ...(providerId === 'gem' ? { model: 'gemini-2.5-flash' } : {}) });
      await h.call('chats.send', { chatId: chat.id, content: 'What is this?', attachments: files });
      await h.settled(chat.id);
    }
    const [message] = openai.requests[0]!.body.messages as { content: { type: string; text?: string }[] }[];
    // Such servers refuse a file part: the PDF goes as its text, read by pdf.js in a worker.
    expect(message!.content[0]!.text).toContain('<file name="report.pdf" type="application/pdf">\nRevenue rose 12 percent');
    expect(message!.content.slice(1)).toEqual([{ type: 'image_url', image_url: { url: `data:image/png;base64,${PICTURE.toString('base64')}` } }]);
    const [content] = gemini.requests[0]!.body.contents as { parts: unknown[] }[];
    expect(content!.parts.slice(1)).toEqual([
      { inlineData: { mimeType: 'image/png', data: PICTURE.toString('base64') } },
      { inlineData: { mimeType: 'application/pdf', data: tinyPdf('Revenue rose 12 percent').toString('base64') } },
    ]);
  });

  it('a picture an OpenAI-compatible model refuses fails with a clear error; sent again, the picture is left out for that model and said so', async () => {
    const h = await startChatHarness();
    // LM Studio's words for a model that sees no pictures.
    const server = await startFakeOpenAi([{ kind: 'json', status: 400, body: { error: { message: 'Model does not support images. Please use a model that does.' } } }, openAiTextReply(['A chart, I am told.'])]);
    onTestFinished(() => server.close());
    await h.provider('local', { kind: 'openai', displayName: 'LM Studio', baseURL: `${server.url}/v1` });
    const chat = await h.chat({ providerId: 'local', model: 'text-only' });
    await h.call('chats.send', { chatId: chat.id, content: 'What is this?', attachments: [file('chart.png', 'image/png', PICTURE)] });
    const failed = await h.settled(chat.id);
    expect(failed.lastRun?.error).toMatchObject({ code: 'pictures_unsupported', message: expect.stringMatching(/LM Studio refused the picture for text-only .*does not support images.*left out for this model/) as unknown });
    // The window learns it too: it says before the next send that pictures are left out.
    expect(await h.call('models.capabilities', { id: 'local', model: 'text-only' })).toMatchObject({ images: 'no' });
    await h.call('chats.regenerate', { chatId: chat.id });
    const done = await h.settled(chat.id);
    expect(done.messages.at(-1)).toMatchObject({ role: 'assistant', content: 'A chart, I am told.' });
    const again = JSON.stringify(server.requests.filter((request) => request.path === '/v1/chat/completions')[1]!.body.messages);
    expect(again).not.toContain('image_url');
    expect(again).toContain('left-out=\\"this model does not take pictures\\"');
  });

  it('a photo sent straight through the API (not the window, which draws it again) reaches the model and the data folder without where it was taken', async () => {
    const h = await startChatHarness();
    const server = await startFakeAnthropic([anthropicReply({ text: ['A gradient.'] })]);
    onTestFinished(() => server.close());
    await h.provider('claude', { kind: 'anthropic', displayName: 'Claude', baseURL: server.url, apiKey: 'sk-ant' });
    const chat = await h.chat({ providerId: 'claude' });
    const place = Buffer.from('Exif\0\0MM\0*GPSLatitude 59.9139 N GPSLongitude 10.7522 E', 'latin1');
    const exif = Buffer.concat([Buffer.from([0xff, 0xe1, 0, place.length + 2]), place]);
    const photo = Buffer.concat([TINY_JPEG.subarray(0, 2), exif, TINY_JPEG.subarray(2)]);
    await h.call('chats.send', { chatId: chat.id, content: 'What is this?', attachments: [file('IMG_0042.jpg', 'image/jpeg', photo)] });
    const done = await h.settled(chat.id);
    const [sent] = (done.messages[0] as UserMessage).files!;
    expect(sent).toMatchObject({ name: 'IMG_0042.jpg', mediaType: 'image/jpeg', bytes: TINY_JPEG.length });
    const [first] = server.requests[0]!.body.messages as { content: { type: string; source?: { data: string } }[] }[];
    expect(Buffer.from(first!.content.find((block) => block.type === 'image')!.source!.data, 'base64').equals(TINY_JPEG)).toBe(true);
    const [keptFile] = await kept(h.dataDir);
    expect((await readFile(path.join(h.dataDir, 'files', keptFile!))).includes('GPSLatitude')).toBe(false);
  });

  it('a chat removed while another message with the same file is on its way (held by a hook) leaves that file kept for it', async () => {
    const h = await startChatHarness();
    await h.provider('script', { kind: 'scripted', displayName: 'Script' });
    const first = await h.chat({ providerId: 'script' });
    await h.call('chats.send', { chatId: first.id, content: 'Look', attachments: [file('a.csv', 'text/csv', CSV)] });
    await h.settled(first.id);
    // The second message waits in its prompt hook: it says it is there through one pipe and goes on when the other is written.
    const reached = path.join(h.dataDir, 'reached');
    const go = path.join(h.dataDir, 'go');
    execFileSync('mkfifo', [reached, go]);
    await h.call('settings.patch', { hooks: { UserPromptSubmit: [{ hooks: [{ type: 'command', command: `echo here > '${reached}'; cat '${go}' > /dev/null` }] }] } } as never);
    const second = await h.chat({ providerId: 'script' });
    const sending = h.call('chats.send', { chatId: second.id, content: 'And again', attachments: [file('b.csv', 'text/csv', CSV)] });
    await readFile(reached);
    await h.call('chats.delete', { chatId: first.id });
    await writeFile(go, 'on\n');
    await sending;
    const [held] = (await h.call('chats.get', { chatId: second.id })).messages.filter((message) => message.role === 'user').map((message) => message.files![0]!);
    const shown = await h.call('chats.file', { chatId: second.id, sha256: held!.sha256 });
    expect(Buffer.from(shown.dataBase64, 'base64').equals(CSV)).toBe(true);
  });

  it('an edited message keeps its files', async () => {
    const h = await startChatHarness();
    await h.provider('script', { kind: 'scripted', displayName: 'Script' });
    const chat = await h.chat({ providerId: 'script' });
    const { messageId } = await h.call('chats.send', { chatId: chat.id, content: 'Sum the tmeps', attachments: [file('temps.csv', 'text/csv', CSV)] });
    await h.settled(chat.id);
    await h.call('chats.send', { chatId: chat.id, content: 'Sum the temps', replaces: messageId });
    const done = await h.settled(chat.id);
    const edited = done.messages[0] as UserMessage;
    expect([edited.content, edited.files?.map((each) => each.name)]).toEqual(['Sum the temps', ['temps.csv']]);
  });

  it('refuses, with the file named and why, what is not what its name says, what models cannot take, and what is too large — keeping nothing, as for a message a hook stops', async () => {
    const h = await startChatHarness();
    await h.provider('script', { kind: 'scripted', displayName: 'Script' });
    const chat = await h.chat({ providerId: 'script' });
    const refused = (attachments: ReturnType<typeof file>[]) => h.failure('chats.send', { chatId: chat.id, content: 'look', attachments });
    const elf = Buffer.concat([Buffer.from([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0]), Buffer.alloc(200)]);
    expect(await refused([file('cat.png', 'image/png', elf)])).toMatchObject({ code: 'unsupported_media_type', message: expect.stringContaining('cat.png') as unknown });
    expect(await refused([file('cat.png', 'image/png', PDF)])).toMatchObject({ code: 'unsupported_media_type', message: expect.stringContaining('its bytes are a PDF') as unknown });
    expect(await refused([file('notes.pdf', 'application/pdf', CSV)])).toMatchObject({ code: 'unsupported_media_type' });
    expect(await refused([file('huge.png', 'image/png', png(40_000, 40_000))])).toMatchObject({ code: 'payload_too_large', message: expect.stringContaining('40000 × 40000') as unknown });
    const big = Buffer.alloc(21 * 1024 * 1024, 'a');
    expect(await refused([file('big.txt', 'text/plain', big)])).toMatchObject({ code: 'payload_too_large', message: expect.stringContaining('big.txt is 21 MB') as unknown });
    const eleven = Buffer.alloc(11 * 1024 * 1024, 'b');
    expect(await refused([1, 2, 3, 4, 5].map((n) => file(`part${n}.txt`, 'text/plain', eleven)))).toMatchObject({ code: 'payload_too_large', message: expect.stringContaining('55 MB') as unknown });
    expect(await h.failure('chats.send', { chatId: chat.id, content: 'x', attachments: [{ kind: 'file', name: 'a.txt', mediaType: 'text/plain', dataBase64: 'not base64!' }] })).toMatchObject({ code: 'invalid_params' });
    expect(await kept(h.dataDir)).toEqual([]);
    expect((await h.call('chats.get', { chatId: chat.id })).messages).toEqual([]);
    // A message a hook stops is never kept, and neither are its files.
    await h.call('settings.patch', { hooks: { UserPromptSubmit: [{ hooks: [{ type: 'command', command: 'echo "not today" >&2; exit 2' }] }] } } as never);
    expect(await refused([file('temps.csv', 'text/csv', CSV)])).toMatchObject({ code: 'hook_denied' });
    expect(await kept(h.dataDir)).toEqual([]);
  });

  it('a model that takes no pictures is told one was left out; a text file longer than a model reads is cut and says so', async () => {
    const h = await startChatHarness();
    const files = new PersonFiles(h.dataDir);
    const [picture, long] = await files.accept([file('chart.png', 'image/png', PICTURE), file('log.txt', 'text/plain', Buffer.alloc(500_000, 'x'))]);
    const message: UserMessage = { id: '019a0000-0000-7000-8000-000000000001', role: 'user', content: 'Look', files: [picture!, long!], createdAt: '2026-01-01T00:00:00.000Z' };
    const [loaded] = (await files.loaded([message], { pictures: false, pdfs: true })) as UserMessage[];
    expect(loaded!.files![0]).toMatchObject({ leftOut: 'this model does not take pictures' });
    expect(loaded!.files![0]).not.toHaveProperty('data');
    expect(loaded!.files![1]).toMatchObject({ text: expect.stringContaining('[… cut: the file has 500000 characters]') as unknown });
  });

  it('OpenAI itself gets a PDF as a file part; its compatible servers, and a PDF built to be slow to read, never hold up the core', async () => {
    expect(fileReaderOf({ kind: 'openai' })).toEqual({ pictures: true, pdfs: true });
    expect(fileReaderOf({ kind: 'openai', baseURL: 'https://api.openai.com/v1' }).pdfs).toBe(true);
    expect(fileReaderOf({ kind: 'openai', baseURL: 'http://127.0.0.1:11434/v1' }).pdfs).toBe(false);
    const h = await startChatHarness();
    const files = new PersonFiles(h.dataDir);
    // 200,000 arrays one inside the next, and a page tree that says it has a million pages.
    const nested = Buffer.from(`%PDF-1.4\n1 0 obj\n<< /Type /Catalog /Pages 2 0 R /Deep ${'['.repeat(200_000)}${']'.repeat(200_000)} >>\nendobj\n2 0 obj\n<< /Type /Pages /Kids [2 0 R] /Count 1000000 >>\nendobj\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n`);
    const [pdf, bomb] = await files.accept([file('report.pdf', 'application/pdf', PDF), file('bomb.pdf', 'application/pdf', nested)]);
    const message: UserMessage = { id: '019a0000-0000-7000-8000-000000000001', role: 'user', content: 'Read', files: [pdf!, bomb!], createdAt: '2026-01-01T00:00:00.000Z' };
    const [native] = (await files.loaded([message], { pictures: true, pdfs: true })) as UserMessage[];
    const wire = toOpenAiMessages(undefined, [native!]);
    expect((wire[0]!.content as unknown[])[1]).toEqual({ type: 'file', file: { filename: 'report.pdf', file_data: `data:application/pdf;base64,${PDF.toString('base64')}` } });
    const [read] = (await files.loaded([message], { pictures: true, pdfs: false })) as UserMessage[];
    expect((read!.files![1] as { text?: string }).text).toBe("[The PDF's text could not be read: Invalid PDF structure.]");
  }, 60_000);
});

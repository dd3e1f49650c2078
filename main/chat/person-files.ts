import { createHash } from 'node:crypto';
import { lstat, readFile, unlink } from 'node:fs/promises';
import path from 'node:path';
import { ToolbeltError } from '../../shared/errors.js';
import { claimedKind, pictureSize, sniffFile } from '../../shared/files/file-sniff.js';
import { MAX_PICTURE_CHARS } from '../../shared/schemas/attached-image.js';
import type { Chat, ChatMessage } from '../../shared/schemas/chat.js';
import { PERSON_FILE_LIMITS, type LoadedFile, type PersonFile, type PersonFileUpload } from '../../shared/schemas/person-file.js';
import { writeFileAtomicallyMakingFolders } from '../common/json-files.js';
import { storageFailure } from '../common/storage-errors.js';
import type { FileReader } from '../providers/capabilities.js';
import { workerUrl } from '../common/worker-location.js';
import { PdfText } from './pdf-text.js';
import { withoutMetadata } from './picture-metadata.js';


/** The longest side of a picture models take (Anthropic's limit; OpenAI and Gemini scale larger ones down themselves). */
export const MAX_PICTURE_SIDE = 8_000;
/** Characters of one text file the model reads; past it, the text is cut and says so. */
const MAX_TEXT_CHARS = 400_000;
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;
const megabytes = (bytes: number) => `${Math.round(bytes / 1024 / 1024)} MB`;

/**
 * The person's files: checked against what their bytes are, kept once each in
 * `files/` of the data folder under their SHA-256 (however often they are sent),
 * read back for each model request, and removed with the last chat that holds them.
 */
export class PersonFiles {
  private readonly folder: string;
  private readonly pdfText: PdfText;
  /** Files of messages on their way to their chats, by SHA-256: how many messages hold each. */
  private readonly sending = new Map<string, number>();

  constructor(
    private readonly dataDir: string,
    pdfWorker: URL = workerUrl('pdf-worker', import.meta.url),
  ) {
    this.folder = path.join(dataDir, 'files');
    this.pdfText = new PdfText(pdfWorker);
  }

  /** Checks what `chats.send` was given and keeps it: the files as the message holds them, or an error that says which one and why. */
  async accept(uploads: readonly PersonFileUpload[]): Promise<PersonFile[]> {
    if (uploads.length > PERSON_FILE_LIMITS.files) throw new ToolbeltError('payload_too_large', `A message takes at most ${PERSON_FILE_LIMITS.files} files; send the others in another message.`);
    const decoded = uploads.map((upload) => ({ upload, bytes: decode(upload) }));
    const total = decoded.reduce((sum, { bytes }) => sum + bytes.length, 0);
    if (total > PERSON_FILE_LIMITS.messageBytes) {
      throw new ToolbeltError('payload_too_large', `These files come to ${megabytes(total)}; a message takes ${megabytes(PERSON_FILE_LIMITS.messageBytes)} in all. Send some in another message.`);
    }
    const kept: PersonFile[] = [];
    for (const { upload, bytes } of decoded) {
      const file = checked(upload, bytes);
      await this.keep(file.file.sha256, file.bytes);
      kept.push(file.file);
    }
    return kept;
  }

  /** A kept file's bytes; `not_found` when no such file is kept. */
  async read(sha256: string): Promise<Buffer> {
    if (!/^[0-9a-f]{64}$/.test(sha256)) throw new ToolbeltError('invalid_params', 'A file is named by its SHA-256, 64 hexadecimal digits.');
    try {
      return await readFile(this.pathOf(sha256));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw new ToolbeltError('not_found', 'This file is no longer kept; it went with the chat that held it.');
      throw storageFailure(error, 'Could not read the file');
    }
  }

  /**
   * The messages as a model request sends them: each message's files read back,
   * pictures only for a model that sees them (else named, with why they were left
   * out), PDFs as documents where the API takes them and as their text elsewhere.
   */
  async loaded(messages: readonly ChatMessage[], reader: FileReader): Promise<ChatMessage[]> {
    if (!messages.some((message) => message.role === 'user' && message.files?.length)) return messages.slice();
    return Promise.all(
      messages.map(async (message) => {
        if (message.role !== 'user' || !message.files?.length) return message;
        const files = await Promise.all(message.files.map((file) => this.load(file, reader)));
        return { ...message, files };
      }),
    );
  }

  /**
   * The files of a message on its way, kept while `send` puts it in its chat: none of them is removed meanwhile (a chat
   * deleted then that held the same bytes), and a message that never got there leaves none of them behind.
   */
  async whileSending<T>(uploads: readonly PersonFileUpload[], send: (files: PersonFile[]) => Promise<T>, chats: () => Promise<readonly Chat[]>): Promise<T> {
    const files = await this.accept(uploads);
    this.counted(files, +1);
    let sent: T;
    try {
      sent = await send(files);
    } catch (error) {
      // No longer on its way: only another message with the same bytes, or a chat, keeps them now.
      this.counted(files, -1);
      await this.forget(files, await chats());
      throw error;
    }
    this.counted(files, -1);
    return sent;
  }

  /** Counts these files in (+1) or out (-1) of the messages on their way. */
  private counted(files: readonly PersonFile[], change: 1 | -1): void {
    for (const file of files) {
      const count = (this.sending.get(file.sha256) ?? 0) + change;
      if (count > 0) this.sending.set(file.sha256, count);
      else this.sending.delete(file.sha256);
    }
  }

  /** Removes those of `files` no chat holds and no message on its way does: a removed chat's, or a message's that was never kept. */
  async forget(files: readonly PersonFile[], chats: readonly Chat[]): Promise<void> {
    const held = new Set([...chats.flatMap(filesOf).map((file) => file.sha256), ...this.sending.keys()]);
    const gone = new Set(files.map((file) => file.sha256).filter((sha256) => !held.has(sha256)));
    await Promise.all([...gone].map((sha256) => unlink(this.pathOf(sha256)).catch(() => undefined)));
  }

  private async load(file: PersonFile, reader: FileReader): Promise<LoadedFile> {
    const left = (why: string): LoadedFile => ({ ...file, leftOut: why });
    if (file.kind === 'picture' && !reader.pictures) return left('this model does not take pictures');
    let bytes: Buffer;
    try {
      bytes = await this.read(file.sha256);
    } catch (error) {
      if (error instanceof ToolbeltError && error.code === 'not_found') return left('the file is no longer kept');
      throw error;
    }
    // A model whose API takes no documents reads the PDF's text.
    if (file.kind === 'pdf' && !reader.pdfs) return { ...file, text: await this.pdfText.of(file.sha256, bytes) };
    if (file.kind !== 'text') return { ...file, data: bytes.toString('base64') };
    const text = bytes.toString('utf8');
    return { ...file, text: text.length > MAX_TEXT_CHARS ? `${text.slice(0, MAX_TEXT_CHARS)}\n[… cut: the file has ${text.length} characters]` : text };
  }

  private async keep(sha256: string, bytes: Buffer): Promise<void> {
    const file = this.pathOf(sha256);
    // Content-addressed: the same bytes are kept once, whoever sends them again.
    if (await lstat(file).then((info) => info.isFile() && info.size === bytes.length, () => false)) return;
    try {
      await writeFileAtomicallyMakingFolders(file, bytes, { within: this.dataDir });
    } catch (error) {
      throw storageFailure(error, 'Could not keep the file', 'send it again');
    }
  }

  private pathOf(sha256: string): string {
    return path.join(this.folder, sha256);
  }
}

/** The person's files a chat's messages hold. */
export function filesOf(chat: Chat): PersonFile[] {
  return chat.messages.flatMap((message) => (message.role === 'user' ? (message.files ?? []) : []));
}

function decode(upload: PersonFileUpload): Buffer {
  if (!BASE64.test(upload.dataBase64)) throw new ToolbeltError('invalid_params', `${upload.name}: dataBase64 is not base64.`);
  const bytes = Buffer.from(upload.dataBase64, 'base64');
  if (bytes.length > PERSON_FILE_LIMITS.fileBytes) {
    throw new ToolbeltError('payload_too_large', `${upload.name} is ${megabytes(bytes.length)}; a file may be up to ${megabytes(PERSON_FILE_LIMITS.fileBytes)}.`);
  }
  return bytes;
}

/** The file as kept: a picture without its metadata (place, camera), named by the SHA-256 of what is kept. */
function checked(upload: PersonFileUpload, given: Buffer): { file: PersonFile; bytes: Buffer } {
  let bytes = given;
  const { name } = upload;
  const sniffed = sniffFile(bytes, name);
  const claimed = claimedKind(name, upload.mediaType);
  if (sniffed.kind === 'heic') throw new ToolbeltError('unsupported_media_type', `${name} is a HEIC picture, which models do not take. Save it as JPEG or PNG and attach that.`);
  if (sniffed.kind === 'other') {
    throw new ToolbeltError('unsupported_media_type', `${name}: Toolbelt takes pictures (PNG, JPEG, GIF, WebP), PDFs and text files; ${claimed ? `its bytes are not a ${claimed === 'pdf' ? 'PDF' : 'picture'}` : 'this is none of them'}.`);
  }
  if (claimed && claimed !== sniffed.kind) {
    const what = sniffed.kind === 'pdf' ? 'a PDF' : sniffed.kind === 'picture' ? 'a picture' : 'text';
    throw new ToolbeltError('unsupported_media_type', `${name} is named as ${claimed === 'pdf' ? 'a PDF' : 'a picture'}, but its bytes are ${what}. Attach the file as it is.`);
  }
  if (sniffed.kind === 'picture') {
    const size = pictureSize(bytes, sniffed.mediaType);
    if (!size) throw new ToolbeltError('unsupported_media_type', `${name}: its ${sniffed.mediaType} header is damaged, so the picture cannot be read.`);
    if (size.width > MAX_PICTURE_SIDE || size.height > MAX_PICTURE_SIDE) {
      throw new ToolbeltError('payload_too_large', `${name} is ${size.width} × ${size.height} pixels; models take pictures up to ${MAX_PICTURE_SIDE} pixels a side. Make it smaller and attach it again.`);
    }
    if (Math.ceil(bytes.length / 3) * 4 > MAX_PICTURE_CHARS) {
      throw new ToolbeltError('payload_too_large', `${name} is ${megabytes(bytes.length)}; models take pictures up to 3 MB. The window makes larger pictures smaller as they are attached; save this one smaller.`);
    }
    const stripped = withoutMetadata(bytes, sniffed.mediaType);
    if (!stripped) throw new ToolbeltError('unsupported_media_type', `${name}: its ${sniffed.mediaType} structure is damaged, so the picture cannot be read. Save it again and attach that.`);
    bytes = stripped;
  }
  const sha256 = createHash('sha256').update(bytes).digest('hex');
  return { file: { name, kind: sniffed.kind, mediaType: sniffed.mediaType, sha256, bytes: bytes.length }, bytes };
}

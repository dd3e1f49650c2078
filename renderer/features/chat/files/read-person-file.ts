import { claimedKind, pictureSize, sniffFile } from '../../../../shared/files/file-sniff.js';
import { MAX_PICTURE_CHARS } from '../../../../shared/schemas/attached-image.js';
import { PERSON_FILE_LIMITS } from '../../../../shared/schemas/person-file.js';
import type { PendingFile } from '../../../state/composer-files.js';
import type { PictureJob, PictureNews } from './picture-job.js';
import PictureWorker from './picture-worker.js?worker';
import { i18n } from '../../../i18n/index.js';
import { fileAsBase64 } from '../../../components/base64.js';

/** The longest side a picture is sent with: larger ones are made smaller here, before they leave the window (OpenAI's own high-detail size). */
const SENT_SIDE = 2_048;
/** Pictures past this many pixels are not decoded at all (a 40,000 × 40,000 one would take gigabytes). */
const MAX_DECODED_PIXELS = 150_000_000;
const MB = 1024 * 1024;

export class FileProblem extends Error {}

const megabytes = (bytes: number) => Math.max(1, Math.round(bytes / MB));

/** The longest side of a picture's preview in the message box: twice its 28 px, for sharp screens. */
const PREVIEW_SIDE = 64;

/**
 * A picture worker already started, for the next picture: starting one takes tens of milliseconds of the quarter
 * second a preview may take. Each picture gets its own (ended when it is done); the next is started after it.
 */
let spareWorker: Worker | null = null;

function pictureWorker(): Worker {
  const worker = spareWorker ?? new PictureWorker();
  spareWorker = null;
  setTimeout(() => (spareWorker ??= new PictureWorker()), 0);
  return worker;
}

/** Starts a picture worker before the first picture comes (the message box calls it when it opens). */
export function warmPictureWorker(): void {
  if (typeof Worker !== 'undefined') spareWorker ??= new PictureWorker();
}

/** A picture being made ready in the picture worker: it resolves with the picture as it is sent; its small preview, if one comes, goes to `onPreview` first. */
function prepared(job: PictureJob, name: string, onPreview: (blob: Blob) => void): Promise<{ blob: Blob; dataBase64: string }> {
  return new Promise((resolve, reject) => {
    const worker = pictureWorker();
    const end = () => worker.terminate();
    worker.onmessage = (event: MessageEvent<PictureNews>) => {
      const news = event.data;
      if (news.kind === 'preview') return onPreview(news.blob);
      end();
      if (news.ok) resolve(news);
      else reject(new FileProblem(i18n.t('files.damaged', { name })));
    };
    worker.onerror = () => {
      end();
      reject(new FileProblem(i18n.t('files.damaged', { name })));
    };
    worker.postMessage(job);
  });
}

/** A file being attached: what the message box shows at once, and, for a picture still being made ready, the file it becomes. */
export interface Attaching {
  pending: PendingFile;
  /** A picture's small preview (an object URL), soon after it is attached: shown while it is made ready. */
  preview?: Promise<string | null>;
  ready?: Promise<PendingFile>;
}

let counter = 0;

/**
 * Reads a pasted, dropped or picked file as it will be sent, or says in the person's language why it cannot be.
 * A picture's small preview comes first (decoding a 12-megapixel photo whole takes a quarter of a second), while a
 * worker makes it smaller and draws away its EXIF (its `ready`).
 */
export async function startPersonFile(file: File): Promise<Attaching> {
  if (file.size > PERSON_FILE_LIMITS.fileBytes) throw new FileProblem(i18n.t('files.tooLarge', { name: file.name, size: megabytes(file.size), max: megabytes(PERSON_FILE_LIMITS.fileBytes) }));
  const head = new Uint8Array(await file.slice(0, 65_540).arrayBuffer());
  const sniffed = sniffFile(head, file.name);
  const claimed = claimedKind(file.name, file.type);
  if (sniffed.kind === 'other') throw new FileProblem(i18n.t('files.unsupported', { name: file.name }));
  if (claimed && claimed !== (sniffed.kind === 'heic' ? 'picture' : sniffed.kind)) throw new FileProblem(i18n.t('files.mismatch', { name: file.name }));
  const id = `file-${++counter}`;
  if (sniffed.kind !== 'picture' && sniffed.kind !== 'heic') {
    return { pending: { id, name: file.name, kind: sniffed.kind, mediaType: sniffed.mediaType, dataBase64: await fileAsBase64(file), bytes: file.size } };
  }
  // A JPEG's size may sit past a large EXIF block: then the whole file is read. A HEIC photo's, where the system decodes it, from the decoder.
  const size =
    sniffed.kind === 'heic' ? await decodedSize(file) : (pictureSize(head, sniffed.mediaType) ?? pictureSize(new Uint8Array(await file.arrayBuffer()), sniffed.mediaType));
  if (!size) throw new FileProblem(i18n.t(sniffed.kind === 'heic' ? 'files.heic' : 'files.damaged', { name: file.name }));
  if (size.width * size.height > MAX_DECODED_PIXELS) throw new FileProblem(i18n.t('files.tooManyPixels', { name: file.name, width: size.width, height: size.height }));
  if (sniffed.mediaType === 'image/gif') {
    // GIFs go as they are (their frames), when models take them so.
    if (Math.ceil(file.size / 3) * 4 > MAX_PICTURE_CHARS || Math.max(size.width, size.height) > 8_000) throw new FileProblem(i18n.t('files.gifTooLarge', { name: file.name }));
    return { pending: { id, name: file.name, kind: 'picture', mediaType: 'image/gif', dataBase64: await fileAsBase64(file), bytes: file.size, previewUrl: URL.createObjectURL(file) } };
  }
  const scale = Math.min(1, SENT_SIDE / Math.max(size.width, size.height));
  const job: PictureJob = { file, mediaType: sniffed.mediaType, width: Math.max(1, Math.round(size.width * scale)), height: Math.max(1, Math.round(size.height * scale)), keepPng: sniffed.mediaType === 'image/png', maxPngBytes: (MAX_PICTURE_CHARS / 4) * 3, previewSide: PREVIEW_SIDE, pictureSide: Math.max(size.width, size.height) };
  const pending: PendingFile = { id, name: file.name, kind: 'picture', mediaType: sniffed.mediaType, dataBase64: '', bytes: file.size, preparing: true };
  let previewed: (url: string | null) => void = () => {};
  let previewCame = false;
  const preview = new Promise<string | null>((resolve) => (previewed = resolve));
  const onPreview = (blob: Blob) => {
    previewCame = true;
    previewed(URL.createObjectURL(blob));
  };
  const ready = prepared(job, file.name, onPreview).then(({ blob, dataBase64 }) => {
    previewed(null);
    const name = blob.type === 'image/jpeg' && !/\.jpe?g$/i.test(file.name) ? `${file.name.replace(/\.[^.]*$/, '')}.jpg` : file.name;
    // The preview stays (the message box keeps it); without one, the picture as it is sent is shown.
    return { id, name, kind: 'picture' as const, mediaType: blob.type, dataBase64, bytes: blob.size, ...(previewCame ? {} : { previewUrl: URL.createObjectURL(blob) }) };
  });
  return { pending, preview, ready };
}

/** A HEIC photo's size as the system decodes it, or null where it cannot (most systems but Apple's). */
async function decodedSize(file: File): Promise<{ width: number; height: number } | null> {
  const bitmap = await createImageBitmap(file).catch(() => null);
  if (!bitmap) return null;
  const size = { width: bitmap.width, height: bitmap.height };
  bitmap.close();
  return size;
}

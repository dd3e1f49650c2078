import { claimedKind, pictureSize, sniffFile } from '../../../../shared/files/file-sniff.js';
import { MAX_PICTURE_CHARS } from '../../../../shared/schemas/attached-image.js';
import { PERSON_FILE_LIMITS } from '../../../../shared/schemas/person-file.js';
import type { PendingFile } from '../../../state/composer-files.js';
import { i18n } from '../../../i18n/index.js';

/** The longest side a picture is sent with: larger ones are made smaller here, before they leave the window (OpenAI's own high-detail size). */
const SENT_SIDE = 2_048;
/** Pictures past this many pixels are not decoded at all (a 40,000 × 40,000 one would take gigabytes). */
const MAX_DECODED_PIXELS = 150_000_000;
const MB = 1024 * 1024;

export class FileProblem extends Error {}

const megabytes = (bytes: number) => Math.max(1, Math.round(bytes / MB));

/** The file's bytes as base64, read off the main thread (a 20 MB file in a loop of `btoa` would hold the window). */
function base64Of(blob: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve((typeof reader.result === 'string' ? reader.result : '').replace(/^data:[^,]*,/, ''));
    reader.onerror = () => reject(reader.error ?? new Error('The file could not be read.'));
    reader.readAsDataURL(blob);
  });
}

/**
 * A picture as it is sent: decoded and scaled by the browser off the main thread
 * (turned as its EXIF says), drawn again, so what it carried besides its pixels
 * (EXIF: where it was taken, the camera) stays behind. GIFs go as they are (their frames).
 */
async function sentPicture(file: File, bytes: Uint8Array, mediaType: string): Promise<Blob> {
  const size = pictureSize(bytes, mediaType);
  if (!size) throw new FileProblem(i18n.t('files.damaged', { name: file.name }));
  if (size.width * size.height > MAX_DECODED_PIXELS) throw new FileProblem(i18n.t('files.tooManyPixels', { name: file.name, width: size.width, height: size.height }));
  if (mediaType === 'image/gif') {
    if (Math.ceil(file.size / 3) * 4 > MAX_PICTURE_CHARS || Math.max(size.width, size.height) > 8_000) throw new FileProblem(i18n.t('files.gifTooLarge', { name: file.name }));
    return file;
  }
  const scale = Math.min(1, SENT_SIDE / Math.max(size.width, size.height));
  const width = Math.max(1, Math.round(size.width * scale));
  const height = Math.max(1, Math.round(size.height * scale));
  let bitmap: ImageBitmap;
  try {
    bitmap = await createImageBitmap(file, { imageOrientation: 'from-image', resizeWidth: width, resizeHeight: height, resizeQuality: 'high' });
  } catch {
    throw new FileProblem(i18n.t('files.damaged', { name: file.name }));
  }
  // Turned by its EXIF orientation, the picture may be the other way round.
  const canvas = new OffscreenCanvas(bitmap.width, bitmap.height);
  canvas.getContext('2d')!.drawImage(bitmap, 0, 0);
  bitmap.close();
  // PNGs keep their transparency; photos go as JPEG.
  const png = mediaType === 'image/png' ? await canvas.convertToBlob({ type: 'image/png' }) : null;
  return png && png.size <= (MAX_PICTURE_CHARS / 4) * 3 ? png : canvas.convertToBlob({ type: 'image/jpeg', quality: 0.9 });
}

let counter = 0;

/** Reads a pasted, dropped or picked file as it will be sent, or says in the person's language why it cannot be. */
export async function readPersonFile(file: File): Promise<PendingFile> {
  if (file.size > PERSON_FILE_LIMITS.fileBytes) throw new FileProblem(i18n.t('files.tooLarge', { name: file.name, size: megabytes(file.size), max: megabytes(PERSON_FILE_LIMITS.fileBytes) }));
  const head = new Uint8Array(await file.slice(0, 65_540).arrayBuffer());
  const sniffed = sniffFile(head, file.name);
  const claimed = claimedKind(file.name, file.type);
  if (sniffed.kind === 'other') throw new FileProblem(i18n.t('files.unsupported', { name: file.name }));
  if (claimed && claimed !== (sniffed.kind === 'heic' ? 'picture' : sniffed.kind)) throw new FileProblem(i18n.t('files.mismatch', { name: file.name }));
  const id = `file-${++counter}`;
  if (sniffed.kind === 'picture' || sniffed.kind === 'heic') {
    if (sniffed.kind === 'heic') {
      // Where the system decodes HEIC the browser draws it; elsewhere it cannot be read here.
      const drawn = await createImageBitmap(file).catch(() => null);
      if (!drawn) throw new FileProblem(i18n.t('files.heic', { name: file.name }));
      drawn.close();
    }
    // The whole file: a JPEG's size may sit past a large EXIF block.
    const blob = sniffed.kind === 'heic' ? await heicAsJpeg(file) : await sentPicture(file, new Uint8Array(await file.arrayBuffer()), sniffed.mediaType);
    const name = blob.type === 'image/jpeg' && !/\.jpe?g$/i.test(file.name) ? `${file.name.replace(/\.[^.]*$/, '')}.jpg` : file.name;
    return { id, name, kind: 'picture', mediaType: blob.type, dataBase64: await base64Of(blob), bytes: blob.size, previewUrl: URL.createObjectURL(blob) };
  }
  return { id, name: file.name, kind: sniffed.kind, mediaType: sniffed.mediaType, dataBase64: await base64Of(file), bytes: file.size };
}

/** A HEIC photo the system could decode, as a JPEG models take, no larger than pictures are sent. */
async function heicAsJpeg(file: File): Promise<Blob> {
  const bitmap = await createImageBitmap(file, { imageOrientation: 'from-image' });
  const scale = Math.min(1, SENT_SIDE / Math.max(bitmap.width, bitmap.height));
  const canvas = new OffscreenCanvas(Math.round(bitmap.width * scale), Math.round(bitmap.height * scale));
  canvas.getContext('2d')!.drawImage(bitmap, 0, 0, canvas.width, canvas.height);
  bitmap.close();
  return canvas.convertToBlob({ type: 'image/jpeg', quality: 0.9 });
}

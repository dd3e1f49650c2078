/**
 * A picture made ready to send, off the window's thread: decoded and scaled by the
 * browser (turned as its EXIF says), drawn again, so what it carried besides its
 * pixels (EXIF: where it was taken, the camera) stays behind, and encoded as base64.
 * A small preview comes first, so the message box shows the picture at once.
 */
import type { PictureJob, PictureNews } from './picture-job.js';

const scope = self as unknown as { onmessage: ((event: MessageEvent<PictureJob>) => void) | null; postMessage(message: PictureNews): void };

function base64Of(bytes: Uint8Array): string {
  let binary = '';
  for (let at = 0; at < bytes.length; at += 0x8000) binary += String.fromCharCode(...bytes.subarray(at, at + 0x8000));
  return btoa(binary);
}

async function prepare({ file, width, height, keepPng, maxPngBytes }: PictureJob): Promise<Blob> {
  const bitmap = await createImageBitmap(file, { imageOrientation: 'from-image', resizeWidth: width, resizeHeight: height, resizeQuality: 'medium' });
  const canvas = new OffscreenCanvas(bitmap.width, bitmap.height);
  canvas.getContext('2d')!.drawImage(bitmap, 0, 0);
  bitmap.close();
  // PNGs keep their transparency while they fit; photos go as JPEG.
  const png = keepPng ? await canvas.convertToBlob({ type: 'image/png' }) : null;
  return png && png.size <= maxPngBytes ? png : canvas.convertToBlob({ type: 'image/jpeg', quality: 0.9 });
}

type Frame = { frame: CanvasImageSource & { close(): void }; width: number; height: number };

/**
 * The picture decoded small. A large JPEG (or WebP) through WebCodecs'
 * ImageDecoder asked for an eighth of its size: the decoder then skips much of
 * the work, and turns it as its EXIF says, as createImageBitmap does. Chromium
 * scales a JPEG only by eighths and refuses a smaller size ("Failed to decode
 * frame", Chromium 150), so it is asked for the eighth of the longest side
 * both ways (whichever way the picture is turned), and only for a picture at
 * least eight previews long. Anything else, a decoder that refuses anyway, or
 * where ImageDecoder is missing, is decoded whole.
 */
async function decodedSmall({ file, mediaType, previewSide, pictureSide }: PictureJob): Promise<Frame> {
  const scalable = (mediaType === 'image/jpeg' || mediaType === 'image/webp') && pictureSide >= previewSide * 8;
  if (scalable && typeof ImageDecoder !== 'undefined' && (await ImageDecoder.isTypeSupported(mediaType))) {
    const eighth = Math.ceil(pictureSide / 8);
    const small = await decodedByWebCodecs(file, mediaType, eighth).catch(() => null);
    if (small) return small;
  }
  const bitmap = await createImageBitmap(file, { imageOrientation: 'from-image' });
  return { frame: bitmap, width: bitmap.width, height: bitmap.height };
}

async function decodedByWebCodecs(file: Blob, mediaType: string, side: number): Promise<Frame> {
  const decoder = new ImageDecoder({ data: file.stream(), type: mediaType, desiredWidth: side, desiredHeight: side });
  try {
    const { image } = await decoder.decode();
    return { frame: image, width: image.displayWidth, height: image.displayHeight };
  } finally {
    decoder.close();
  }
}

async function previewOf(job: PictureJob): Promise<Blob> {
  const { previewSide } = job;
  const { frame, width, height } = await decodedSmall(job);
  try {
    const scale = Math.min(1, previewSide / Math.max(width, height));
    const canvas = new OffscreenCanvas(Math.max(1, Math.round(width * scale)), Math.max(1, Math.round(height * scale)));
    canvas.getContext('2d')!.drawImage(frame, 0, 0, canvas.width, canvas.height);
    return await canvas.convertToBlob({ type: 'image/png' });
  } finally {
    frame.close();
  }
}

async function run(job: PictureJob): Promise<void> {
  // A preview that cannot be made is no failure: the picture as it is sent shows instead.
  const preview = await previewOf(job).catch(() => null);
  if (preview) scope.postMessage({ kind: 'preview', blob: preview });
  const blob = await prepare(job).catch(() => null);
  if (!blob) return scope.postMessage({ kind: 'ready', ok: false });
  scope.postMessage({ kind: 'ready', ok: true, blob, dataBase64: base64Of(new Uint8Array(await blob.arrayBuffer())) });
}

scope.onmessage = (event) => {
  void run(event.data);
};

/**
 * A picture made ready to send, off the window's thread: decoded and scaled by the
 * browser (turned as its EXIF says), drawn again, so what it carried besides its
 * pixels (EXIF: where it was taken, the camera) stays behind, and encoded as base64.
 */
import type { PictureJob, PictureReady } from './picture-job.js';

const scope = self as unknown as { onmessage: ((event: MessageEvent<PictureJob>) => void) | null; postMessage(message: PictureReady): void };

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

scope.onmessage = (event) => {
  prepare(event.data).then(
    async (blob) => scope.postMessage({ ok: true, blob, dataBase64: base64Of(new Uint8Array(await blob.arrayBuffer())) }),
    () => scope.postMessage({ ok: false }),
  );
};

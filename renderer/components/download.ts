import { base64Bytes } from './base64.js';

/**
 * Hands text to the browser as a file to save (the desktop app asks where).
 * The object URL is let go once the click has started the download.
 */
export function saveTextFile(fileName: string, text: string, type: string): void {
  saveBlob(fileName, new Blob([text], { type: `${type};charset=utf-8` }));
}

/** Hands bytes (as the core sends them, base64) to the browser as a file to save. */
export function saveBase64File(fileName: string, base64: string, type: string): void {
  saveBlob(fileName, new Blob([base64Bytes(base64)], { type }));
}

/** Hands bytes made in the window (an archive) to the browser as a file to save. */
export function saveBytesFile(fileName: string, bytes: Uint8Array, type: string): void {
  saveBlob(fileName, new Blob([bytes as Uint8Array<ArrayBuffer>], { type }));
}

function saveBlob(fileName: string, blob: Blob): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.rel = 'noopener';
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}


/** Bytes the core sends as base64, as bytes again. */
export function base64Bytes(base64: string): Uint8Array<ArrayBuffer> {
  return Uint8Array.from(atob(base64), (char) => char.charCodeAt(0));
}

/** Base64 of UTF-8 text (a text file, a cURL body), as text. */
export function base64Text(base64: string): string {
  return new TextDecoder().decode(base64Bytes(base64));
}

/** A file's bytes as base64, read off the main thread (a 20 MB file in a loop of `btoa` would hold the window). */
export function fileAsBase64(blob: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve((typeof reader.result === 'string' ? reader.result : '').replace(/^data:[^,]*,/, ''));
    reader.onerror = () => reject(reader.error ?? new Error('The file could not be read.'));
    reader.readAsDataURL(blob);
  });
}

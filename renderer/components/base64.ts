/** Bytes the core sends as base64, as bytes again. */
export function base64Bytes(base64: string): Uint8Array<ArrayBuffer> {
  return Uint8Array.from(atob(base64), (char) => char.charCodeAt(0));
}

/** Base64 of UTF-8 text (a text file, a cURL body), as text. */
export function base64Text(base64: string): string {
  return new TextDecoder().decode(base64Bytes(base64));
}

/**
 * What a file's bytes are, read from the bytes and not from its name: the
 * window uses it before it decodes a picture, the core before it keeps one.
 */

export type SniffedFile =
  | { kind: 'picture'; mediaType: 'image/png' | 'image/jpeg' | 'image/gif' | 'image/webp' }
  | { kind: 'heic'; mediaType: 'image/heic' }
  | { kind: 'pdf'; mediaType: 'application/pdf' }
  | { kind: 'text'; mediaType: string }
  | { kind: 'other' };

const startsWith = (bytes: Uint8Array, signature: readonly number[], at = 0) => signature.every((byte, index) => bytes[at + index] === byte);
const ascii = (bytes: Uint8Array, from: number, to: number) => String.fromCharCode(...bytes.subarray(from, to));

/** Brands of an ISO media file that hold HEIF pictures (what phones save as .heic). */
const HEIF_BRANDS = new Set(['heic', 'heix', 'hevc', 'hevx', 'mif1', 'msf1', 'avif']);

/** Types a text file is sent as, by its name's ending; any other text is text/plain. */
const TEXT_TYPES: Record<string, string> = { csv: 'text/csv', json: 'application/json', md: 'text/markdown', html: 'text/html', xml: 'application/xml', yaml: 'application/yaml', yml: 'application/yaml' };

function extensionOf(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot > 0 ? name.slice(dot + 1).toLowerCase() : '';
}

/** Whether the bytes are UTF-8 text a person would read: valid, no NUL, few control characters. */
function isText(bytes: Uint8Array): boolean {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes.subarray(0, 65_536 + 3));
  } catch {
    // A cut through the middle of a character at the sample's end is still text.
    if (bytes.length <= 65_539) return false;
    try {
      text = new TextDecoder('utf-8', { fatal: true }).decode(bytes.subarray(0, 65_536));
    } catch {
      return false;
    }
  }
  let control = 0;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (code === 0) return false;
    if (code < 32 && code !== 9 && code !== 10 && code !== 13 && code !== 12) control++;
  }
  return control <= text.length / 100;
}

export function sniffFile(bytes: Uint8Array, name: string): SniffedFile {
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return { kind: 'picture', mediaType: 'image/png' };
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return { kind: 'picture', mediaType: 'image/jpeg' };
  if (bytes.length >= 6 && (ascii(bytes, 0, 6) === 'GIF87a' || ascii(bytes, 0, 6) === 'GIF89a')) return { kind: 'picture', mediaType: 'image/gif' };
  if (bytes.length >= 12 && ascii(bytes, 0, 4) === 'RIFF' && ascii(bytes, 8, 12) === 'WEBP') return { kind: 'picture', mediaType: 'image/webp' };
  if (bytes.length >= 12 && ascii(bytes, 4, 8) === 'ftyp' && HEIF_BRANDS.has(ascii(bytes, 8, 12))) return { kind: 'heic', mediaType: 'image/heic' };
  if (bytes.length >= 5 && ascii(bytes, 0, 5) === '%PDF-') return { kind: 'pdf', mediaType: 'application/pdf' };
  if (bytes.length > 0 && isText(bytes)) return { kind: 'text', mediaType: TEXT_TYPES[extensionOf(name)] ?? 'text/plain' };
  return { kind: 'other' };
}

const PICTURE_ENDINGS = new Set(['png', 'jpg', 'jpeg', 'jfif', 'gif', 'webp', 'heic', 'heif', 'avif', 'bmp', 'tif', 'tiff']);

/** What the name (or the type its sender gave) says the file is, where it says: a picture, a PDF, or nothing firm. */
export function claimedKind(name: string, mediaType: string): 'picture' | 'pdf' | null {
  const ending = extensionOf(name);
  if (PICTURE_ENDINGS.has(ending) || mediaType.startsWith('image/')) return 'picture';
  if (ending === 'pdf' || mediaType === 'application/pdf') return 'pdf';
  return null;
}

const u16be = (bytes: Uint8Array, at: number) => (bytes[at]! << 8) | bytes[at + 1]!;
const u16le = (bytes: Uint8Array, at: number) => bytes[at]! | (bytes[at + 1]! << 8);
const u24le = (bytes: Uint8Array, at: number) => bytes[at]! | (bytes[at + 1]! << 8) | (bytes[at + 2]! << 16);
const u32be = (bytes: Uint8Array, at: number) => ((bytes[at]! << 24) >>> 0) + (bytes[at + 1]! << 16) + (bytes[at + 2]! << 8) + bytes[at + 3]!;

/** A picture's width and height from its header, without decoding it (a 40,000 × 40,000 picture is refused before it is drawn); null when the header does not say. */
export function pictureSize(bytes: Uint8Array, mediaType: string): { width: number; height: number } | null {
  if (mediaType === 'image/png' && bytes.length >= 24) return { width: u32be(bytes, 16), height: u32be(bytes, 20) };
  if (mediaType === 'image/gif' && bytes.length >= 10) return { width: u16le(bytes, 6), height: u16le(bytes, 8) };
  if (mediaType === 'image/webp' && bytes.length >= 30) {
    const chunk = ascii(bytes, 12, 16);
    if (chunk === 'VP8X') return { width: u24le(bytes, 24) + 1, height: u24le(bytes, 27) + 1 };
    if (chunk === 'VP8 ') return { width: u16le(bytes, 26) & 0x3fff, height: u16le(bytes, 28) & 0x3fff };
    if (chunk === 'VP8L') {
      const bits = bytes[21]! | (bytes[22]! << 8) | (bytes[23]! << 16) | (bytes[24]! << 24);
      return { width: (bits & 0x3fff) + 1, height: ((bits >>> 14) & 0x3fff) + 1 };
    }
    return null;
  }
  if (mediaType === 'image/jpeg') {
    // The frame header (SOF0…SOF15 but DHT, JPG and DAC) holds the size; walk the segments to it.
    let at = 2;
    while (at + 9 < bytes.length) {
      if (bytes[at] !== 0xff) return null;
      const marker = bytes[at + 1]!;
      if (marker === 0xff) {
        at++;
        continue;
      }
      const length = u16be(bytes, at + 2);
      if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) return { width: u16be(bytes, at + 7), height: u16be(bytes, at + 5) };
      at += 2 + length;
    }
  }
  return null;
}

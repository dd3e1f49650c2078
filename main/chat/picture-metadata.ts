/**
 * A picture without what it carries besides its pixels: where it was taken, the camera, its maker's notes and
 * comments (EXIF, XMP, IPTC, text chunks). The window draws pictures again before they leave it; pictures sent
 * straight to `chats.send` (a script, another program) are stripped here, by walking each format's own structure,
 * so nothing inside the pixel data is touched. (exif-be-gone, the small library for this, reads WebP's chunks as
 * PNG's and finds JPEG segments by searching bytes, so a WebP kept its EXIF.) The colour profile stays: without it
 * the colours change. GIF has no EXIF; an XMP application block in one is rare and left as it is.
 *
 * A picture cut short (its last segment or chunk running past the end, as a download that stopped) keeps what it has,
 * less a metadata block it ends in. Undefined when the structure cannot be walked at all (no marker where a JPEG
 * segment should start): such a picture is refused.
 */
export function withoutMetadata(bytes: Buffer, mediaType: string): Buffer | undefined {
  switch (mediaType) {
    case 'image/jpeg':
      return jpegWithout(bytes);
    case 'image/png':
      return pngWithout(bytes);
    case 'image/webp':
      return webpWithout(bytes);
    default:
      return bytes;
  }
}

/** APP1 (EXIF, XMP), APP13 (IPTC, Photoshop) and comments; APP0 (JFIF), APP2 (the ICC profile) and APP14 (Adobe's colour transform) stay. */
const JPEG_DROPPED = new Set([0xe1, 0xed, 0xfe]);
const START_OF_SCAN = 0xda;

function jpegWithout(bytes: Buffer): Buffer | undefined {
  const kept: Buffer[] = [bytes.subarray(0, 2)];
  let at = 2;
  while (at + 4 <= bytes.length) {
    if (bytes[at] !== 0xff) return undefined;
    const marker = bytes[at + 1]!;
    // The scan and all after it (entropy-coded data, later scans, the end marker) go as they are.
    if (marker === START_OF_SCAN) break;
    // A fill byte before a marker, or a marker without a length (TEM, RSTn).
    if (marker === 0xff) {
      at += 1;
      continue;
    }
    if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
      kept.push(bytes.subarray(at, at + 2));
      at += 2;
      continue;
    }
    const end = Math.min(at + 2 + bytes.readUInt16BE(at + 2), bytes.length);
    if (!JPEG_DROPPED.has(marker)) kept.push(bytes.subarray(at, end));
    at = end;
  }
  kept.push(bytes.subarray(at));
  return Buffer.concat(kept);
}

const PNG_DROPPED = new Set(['eXIf', 'tEXt', 'zTXt', 'iTXt', 'tIME']);

function pngWithout(bytes: Buffer): Buffer {
  const kept: Buffer[] = [bytes.subarray(0, 8)];
  let at = 8;
  while (at + 8 <= bytes.length) {
    const end = Math.min(at + 12 + bytes.readUInt32BE(at), bytes.length);
    const type = bytes.toString('latin1', at + 4, at + 8);
    if (!PNG_DROPPED.has(type)) kept.push(bytes.subarray(at, end));
    at = end;
    if (type === 'IEND') break;
  }
  return Buffer.concat(kept);
}

const WEBP_DROPPED = new Set(['EXIF', 'XMP ']);
/** VP8X's flags: the picture has EXIF (bit 3), XMP (bit 2). */
const VP8X_METADATA_FLAGS = 0x08 | 0x04;

function webpWithout(bytes: Buffer): Buffer {
  const riffEnd = Math.min(8 + bytes.readUInt32LE(4), bytes.length);
  const kept: Buffer[] = [];
  let at = 12;
  while (at + 8 <= riffEnd) {
    const size = bytes.readUInt32LE(at + 4);
    const end = Math.min(at + 8 + size + (size % 2), riffEnd);
    const fourCC = bytes.toString('latin1', at, at + 4);
    if (fourCC === 'VP8X' && size >= 1) {
      const header = Buffer.from(bytes.subarray(at, end));
      header[8] = header[8]! & ~VP8X_METADATA_FLAGS;
      kept.push(header);
    } else if (!WEBP_DROPPED.has(fourCC)) {
      kept.push(bytes.subarray(at, end));
    }
    at = end;
  }
  const body = Buffer.concat(kept);
  const head = Buffer.from(bytes.subarray(0, 12));
  head.writeUInt32LE(body.length + 4, 4);
  return Buffer.concat([head, body]);
}

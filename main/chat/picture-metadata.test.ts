import { describe, expect, it } from 'vitest';
import { TINY_JPEG, TINY_PNG, TINY_WEBP } from '../../testing/data/tiny-pictures.js';
import { withoutMetadata } from './picture-metadata.js';

/** Where a phone says it took the picture, as EXIF and XMP carry it. */
const PLACE = 'GPSLatitude 59.9139 N GPSLongitude 10.7522 E';

function jpegSegment(marker: number, payload: Buffer): Buffer {
  const head = Buffer.from([0xff, marker, 0, 0]);
  head.writeUInt16BE(payload.length + 2, 2);
  return Buffer.concat([head, payload]);
}

function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  return Buffer.concat([length, Buffer.from(type, 'latin1'), data, Buffer.alloc(4)]);
}

function webpChunk(fourCC: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.write(fourCC, 0, 'latin1');
  head.writeUInt32LE(data.length, 4);
  return Buffer.concat([head, data, data.length % 2 ? Buffer.alloc(1) : Buffer.alloc(0)]);
}

describe('a picture without what it carries besides its pixels', () => {
  it('JPEG: EXIF, XMP, IPTC and comments go, the colour profile and every other byte stay as they were', () => {
    const exif = jpegSegment(0xe1, Buffer.concat([Buffer.from('Exif\0\0MM\0*', 'latin1'), Buffer.from(PLACE)]));
    const xmp = jpegSegment(0xe1, Buffer.from(`http://ns.adobe.com/xap/1.0/\0<x:xmpmeta>${PLACE}</x:xmpmeta>`));
    const iptc = jpegSegment(0xed, Buffer.from(`Photoshop 3.0\0${PLACE}`));
    const comment = jpegSegment(0xfe, Buffer.from(PLACE));
    // Where a camera writes them: right after the start of the image, before JFIF's own segment.
    const withPlace = Buffer.concat([TINY_JPEG.subarray(0, 2), exif, xmp, TINY_JPEG.subarray(2, 20), iptc, comment, TINY_JPEG.subarray(20)]);
    expect(withPlace.includes(PLACE)).toBe(true);
    const stripped = withoutMetadata(withPlace, 'image/jpeg')!;
    expect(stripped.equals(TINY_JPEG)).toBe(true);
    expect(TINY_JPEG.includes(Buffer.from('ICC_PROFILE'))).toBe(true);
    expect(withoutMetadata(TINY_JPEG, 'image/jpeg')!.equals(TINY_JPEG)).toBe(true);
  });

  it('PNG: eXIf, text and time chunks go, the pixels stay', () => {
    const [signatureAndHeader, rest] = [TINY_PNG.subarray(0, 33), TINY_PNG.subarray(33)];
    const withPlace = Buffer.concat([signatureAndHeader, pngChunk('eXIf', Buffer.from(`MM\0*${PLACE}`)), pngChunk('tEXt', Buffer.from(`Comment\0${PLACE}`)), pngChunk('iTXt', Buffer.from(`XML:com.adobe.xmp\0\0\0\0\0${PLACE}`)), pngChunk('tIME', Buffer.alloc(7)), rest]);
    expect(withoutMetadata(withPlace, 'image/png')!.equals(TINY_PNG)).toBe(true);
  });

  it('WebP: EXIF and XMP chunks go, VP8X no longer says it has them, and the RIFF size says the new length', () => {
    const vp8x = TINY_WEBP.subarray(12, 30);
    const flagged = Buffer.from(vp8x);
    flagged[8] = flagged[8]! | 0x08 | 0x04;
    const chunks = Buffer.concat([flagged, TINY_WEBP.subarray(30), webpChunk('EXIF', Buffer.from(`MM\0*${PLACE}`)), webpChunk('XMP ', Buffer.from(`<x:xmpmeta>${PLACE}</x:xmpmeta>`))]);
    const head = Buffer.from(TINY_WEBP.subarray(0, 12));
    head.writeUInt32LE(chunks.length + 4, 4);
    const stripped = withoutMetadata(Buffer.concat([head, chunks]), 'image/webp')!;
    expect(stripped.equals(TINY_WEBP)).toBe(true);
  });

  it('a picture cut short keeps what it has, less a metadata block it ends in; a JPEG with no segment where one should be is refused', () => {
    const exif = jpegSegment(0xe1, Buffer.concat([Buffer.from('Exif\0\0', 'latin1'), Buffer.from(PLACE)]));
    const cutInExif = Buffer.concat([TINY_JPEG.subarray(0, 20), exif]).subarray(0, 20 + 30);
    const stripped = withoutMetadata(cutInExif, 'image/jpeg')!;
    expect(stripped.includes('GPS')).toBe(false);
    expect(stripped.equals(TINY_JPEG.subarray(0, 20))).toBe(true);
    expect(withoutMetadata(Buffer.concat([TINY_JPEG.subarray(0, 20), Buffer.from('not a segment')]), 'image/jpeg')).toBeUndefined();
    expect(withoutMetadata(TINY_PNG.subarray(0, 60), 'image/png')!.length).toBeLessThanOrEqual(60);
    expect(withoutMetadata(TINY_WEBP.subarray(0, 100), 'image/webp')!.length).toBeLessThanOrEqual(100);
  });
});

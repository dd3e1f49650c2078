/** What the picture worker is asked: the file, the size to draw it at, whether a PNG may stay PNG (and up to what size). */
export interface PictureJob {
  file: Blob;
  /** What the file is (sniffed from its bytes): the preview decodes a JPEG or WebP small where the browser can. */
  mediaType: string;
  width: number;
  height: number;
  keepPng: boolean;
  maxPngBytes: number;
  /** The longest side of the preview shown in the message box while the picture is made ready. */
  previewSide: number;
  /** The picture's own longest side, in pixels. */
  pictureSide: number;
}

/** Its news, in this order: a small preview for the message box (when one could be made), then the picture as it is sent, or that it could not be decoded. */
export type PictureNews = { kind: 'preview'; blob: Blob } | { kind: 'ready'; ok: true; blob: Blob; dataBase64: string } | { kind: 'ready'; ok: false };

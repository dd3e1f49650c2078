/** What the picture worker is asked: the file, the size to draw it at, whether a PNG may stay PNG (and up to what size). */
export interface PictureJob {
  file: Blob;
  width: number;
  height: number;
  keepPng: boolean;
  maxPngBytes: number;
}

/** Its answer: the picture as it is sent, or that it could not be decoded. */
export type PictureReady = { ok: true; blob: Blob; dataBase64: string } | { ok: false };

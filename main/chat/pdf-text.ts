import { Worker } from 'node:worker_threads';

export interface PdfTextRequest {
  bytes: Uint8Array;
  maxPages: number;
  maxChars: number;
}

export type PdfTextReply = { ok: true; text: string; pagesRead: number; totalPages: number } | { ok: false; message: string };

/** What is read of one PDF for a model that takes no documents: its first pages, up to what a model reads of a text file. */
const LIMITS = { maxPages: 300, maxChars: 400_000, timeoutMs: 20_000, heapMb: 256 };
/** PDFs read lately, by SHA-256: a chat sends its files again on every turn. */
const CACHE_SIZE = 16;

/**
 * A PDF's text, read in a worker of its own (pdf.js): a PDF that takes too long
 * or too much memory to read ends the worker, not the core, and says why.
 */
export class PdfText {
  private readonly cache = new Map<string, string>();

  constructor(private readonly workerUrl: URL) {}

  async of(sha256: string, bytes: Uint8Array): Promise<string> {
    const known = this.cache.get(sha256);
    if (known !== undefined) return known;
    const reply = await this.read(bytes);
    const text = reply.ok
      ? `${reply.text}${reply.pagesRead < reply.totalPages ? `\n[… the first ${reply.pagesRead} of ${reply.totalPages} pages]` : ''}`
      : `[The PDF's text could not be read: ${reply.message}]`;
    this.cache.set(sha256, text);
    if (this.cache.size > CACHE_SIZE) this.cache.delete(this.cache.keys().next().value!);
    return text;
  }

  private read(bytes: Uint8Array): Promise<PdfTextReply> {
    return new Promise((resolve) => {
      const worker = new Worker(this.workerUrl, { resourceLimits: { maxOldGenerationSizeMb: LIMITS.heapMb } });
      let settled = false;
      const settle = (reply: PdfTextReply) => {
        if (settled) return;
        settled = true;
        clearTimeout(deadline);
        resolve(reply);
        // A worker that already exited has nothing left to end.
        worker.terminate().catch(() => undefined);
      };
      const deadline = setTimeout(() => settle({ ok: false, message: `it took longer than ${LIMITS.timeoutMs / 1000} s` }), LIMITS.timeoutMs);
      worker.once('message', (reply: PdfTextReply) => settle(reply));
      worker.once('error', (error) => settle({ ok: false, message: /memory/i.test(error.message) ? 'it needs more memory than a PDF is given' : error.message }));
      worker.once('exit', () => settle({ ok: false, message: 'its reader stopped' }));
      worker.postMessage({ bytes, maxPages: LIMITS.maxPages, maxChars: LIMITS.maxChars } satisfies PdfTextRequest);
    });
  }
}

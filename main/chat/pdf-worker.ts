import { parentPort } from 'node:worker_threads';
import { getDocumentProxy } from 'unpdf';
import type { PdfTextReply, PdfTextRequest } from './pdf-text.js';

/**
 * The thread a PDF's text is read on (pdf.js, through unpdf): a PDF built to be
 * slow or large to read (deep nesting, a huge page count) costs this thread, which
 * the core ends past its time and memory budget, never the core's. One PDF, one answer.
 */
const port = parentPort!;
port.once('message', (request: PdfTextRequest) => {
  read(request).then(
    (reply) => port.postMessage(reply),
    (error: unknown) => port.postMessage({ ok: false, message: error instanceof Error ? error.message : String(error) } satisfies PdfTextReply),
  );
});

async function read({ bytes, maxPages, maxChars }: PdfTextRequest): Promise<PdfTextReply> {
  // Quiet: pdf.js's warnings about a damaged file would land in the core's output.
  const pdf = await getDocumentProxy(bytes, { stopAtErrors: false, verbosity: 0 });
  const pages: string[] = [];
  let chars = 0;
  const last = Math.min(pdf.numPages, maxPages);
  for (let number = 1; number <= last && chars < maxChars; number++) {
    const page = await pdf.getPage(number);
    const content = await page.getTextContent();
    const text = content.items.map((item) => ('str' in item ? item.str + (item.hasEOL ? '\n' : '') : '')).join('');
    pages.push(text);
    chars += text.length;
    page.cleanup();
  }
  return { ok: true, text: pages.join('\n\n').slice(0, maxChars), pagesRead: pages.length, totalPages: pdf.numPages };
}

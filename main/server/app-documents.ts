import { createHash } from 'node:crypto';
import type { AppCspDeclaration } from '../../shared/mcp/app-csp.js';

/** An MCP App's document as its server sent it, with the origins it declared for its sandbox. */
export interface AppDocument {
  html: string;
  csp?: AppCspDeclaration;
}

/**
 * The app documents the core has read lately, by the SHA-256 of their text,
 * for the app sandbox to serve as a page of its own (the relay frames it at
 * once, instead of asking the window for the text and writing it in). The
 * digest (of the text and the declaration) is the only way to name one, so
 * a document is served only to whom already knows its content. Bounded by bytes; the least lately kept goes
 * first, and a document gone is read again by the window's way (the relay
 * asks the window for the text).
 */
export interface AppDocumentShelf {
  /** Keeps a document (again) and answers its digest; nothing for one larger than the whole shelf, which it cannot keep. */
  keep(document: AppDocument): string | undefined;
  get(digest: string): AppDocument | undefined;
}

const DIGEST = /^[0-9a-f]{64}$/;
/** Enough for the apps a person has open: a PDF viewer's document is ~1 MB, a basic app ~0.2 MB. */
const DEFAULT_MAX_BYTES = 32_000_000;

export function createAppDocumentShelf(options: { maxBytes?: number } = {}): AppDocumentShelf {
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES;
  // A Map iterates in insertion order: deleting and setting again makes an entry the newest.
  const shelf = new Map<string, { document: AppDocument; bytes: number }>();
  let bytes = 0;
  return {
    keep(document) {
      // The declaration is part of what is kept: the same text from two servers may run under two policies.
      const digest = createHash('sha256').update(JSON.stringify(document.csp ?? {})).update('\n').update(document.html).digest('hex');
      const known = shelf.get(digest);
      if (known) {
        shelf.delete(digest);
        bytes -= known.bytes;
      }
      // The text counts twice: JavaScript holds it as UTF-16 in the worst case.
      const size = document.html.length * 2;
      // A digest the sandbox would not know: the window would wait for a document that never comes.
      if (size > maxBytes) return undefined;
      shelf.set(digest, { document, bytes: size });
      bytes += size;
      for (const [oldest, entry] of shelf) {
        if (bytes <= maxBytes) break;
        shelf.delete(oldest);
        bytes -= entry.bytes;
      }
      return digest;
    },
    get(digest) {
      return DIGEST.test(digest) ? shelf.get(digest)?.document : undefined;
    },
  };
}

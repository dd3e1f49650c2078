import { describe, expect, it } from 'vitest';
import { createAppDocumentShelf } from './app-documents.js';

describe('the shelf of app documents the sandbox serves by digest', () => {
  it('names a document by the digest of its text and declaration, and gives it back by that name only', () => {
    const shelf = createAppDocumentShelf();
    const digest = shelf.keep({ html: '<p>clock</p>' })!;
    expect(digest).toMatch(/^[0-9a-f]{64}$/);
    expect(shelf.get(digest)).toEqual({ html: '<p>clock</p>' });
    expect(shelf.keep({ html: '<p>clock</p>' })).toBe(digest);
    // The same text under another declaration is another document: it must not run under the first one's policy.
    const declared = shelf.keep({ html: '<p>clock</p>', csp: { connectDomains: ['https://api.example.com'] } })!;
    expect(declared).not.toBe(digest);
    expect(shelf.get(declared)?.csp).toEqual({ connectDomains: ['https://api.example.com'] });
    for (const name of ['', digest.toUpperCase(), `${digest}/..`, '../secrets.key', digest.slice(1)]) expect(shelf.get(name)).toBeUndefined();
  });

  it('keeps what fits its bytes, letting the least lately kept go first, and never one larger than all of it', () => {
    const shelf = createAppDocumentShelf({ maxBytes: 100 });
    const first = shelf.keep({ html: 'a'.repeat(20) })!;
    const second = shelf.keep({ html: 'b'.repeat(20) })!;
    // Kept again: now the newest.
    shelf.keep({ html: 'a'.repeat(20) });
    const third = shelf.keep({ html: 'c'.repeat(20) })!;
    expect(shelf.get(second)).toBeUndefined();
    expect(shelf.get(first)).toBeDefined();
    expect(shelf.get(third)).toBeDefined();
    // Not kept, and no digest for it: the window writes it in by its own way.
    expect(shelf.keep({ html: 'd'.repeat(60) })).toBeUndefined();
    expect(shelf.get(first)).toBeDefined();
  });
});

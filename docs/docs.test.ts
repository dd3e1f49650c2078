import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createAjv } from '../main/common/validation.js';
import { createDocumentValidator } from '../main/store/document-validation.js';

const DOCS = import.meta.dirname;
const ROOT = path.resolve(DOCS, '..');

/** The ```json blocks of a page that are whole documents. */
function jsonBlocks(page: string): unknown[] {
  const text = readFileSync(path.join(DOCS, page), 'utf8');
  return [...text.matchAll(/```json\n([\s\S]*?)```/g)].map((match) => match[1]!.trim()).filter((block) => block.startsWith('{')).map((block) => JSON.parse(block) as unknown);
}

describe('the docs', () => {
  it('tool-format.md: its bundle.json and tool.json examples are valid files', () => {
    const validator = createDocumentValidator(createAjv({ strict: false }));
    const [bundle, tool] = jsonBlocks('tool-format.md');
    expect(validator.bundleFile(bundle)).toMatchObject({ ok: true });
    expect(validator.toolFile(tool, true)).toMatchObject({ ok: true });
  });

  it('link only to files inside the repository that exist', () => {
    for (const page of ['../README.md', 'architecture.md', 'tool-format.md']) {
      const text = readFileSync(path.join(DOCS, page), 'utf8');
      for (const [, target] of text.matchAll(/\]\(([^)#]+)(?:#[^)]*)?\)/g)) {
        expect(target, `${page} links to ${target}`).not.toMatch(/^[a-z]+:/);
        const resolved = path.resolve(path.dirname(path.join(DOCS, page)), target!);
        expect(resolved.startsWith(ROOT + path.sep), `${page} links outside the repository: ${target}`).toBe(true);
        expect(() => readFileSync(resolved), `${page} links to a missing file: ${target}`).not.toThrow();
      }
    }
  });
});

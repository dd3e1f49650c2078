import { describe, expect, it } from 'vitest';
import { documentText, jsonProblem, nextVersion, parseProblem, setPath, slugFrom, toolBody } from './draft.js';

describe('editor drafts', () => {
  it('suggests the next version', () => {
    expect(nextVersion('v1')).toBe('v2');
    expect(nextVersion('1.4.9')).toBe('1.4.10');
    expect(nextVersion('beta')).toBe('beta-2');
  });

  it('makes slugs from names, Unicode kept', () => {
    expect(slugFrom('Weather Report (EU)')).toBe('weather-report-eu');
    expect(slugFrom('Météo  du jour')).toBe('météo-du-jour');
    expect(slugFrom('under_score')).toBe('under-score');
  });

  it('edits nested paths immutably and leaves the address out of the body', () => {
    const draft = { slug: 's', version: 'v1', impl: { method: 'GET' } };
    const next = setPath(draft, ['impl', 'urlTemplate'], 'https://x.example/');
    expect(draft.impl).toEqual({ method: 'GET' });
    expect(toolBody(next)).toEqual({ impl: { method: 'GET', urlTemplate: 'https://x.example/' } });
    expect(setPath(next, ['impl', 'method'], undefined).impl).toEqual({ urlTemplate: 'https://x.example/' });
  });
});

describe('documentText', () => {
  it('puts text that does not parse yet in its field, as typed, so the document view loses nothing', () => {
    const draft = { slug: 'weather', version: 'v1', argSchema: { type: 'object' }, impl: { method: 'GET', query: { q: 'x' } } } as never;
    const typed = '{\n  "type": "object",\n  "properties": {\n    "city": { "type": "string" }\n';
    const text = documentText(draft, { '/argSchema': typed, '/impl/query': '{"q": ' });
    expect(text).toContain('"argSchema": {\n    "type": "object",\n    "properties": {\n      "city": { "type": "string" }');
    expect(text).toContain('"query": {"q":');
    expect(parseProblem(text)).toMatch(/^Not valid JSON: [^"]+\. Nothing is lost: fix it here to save\.$/);
    expect(parseProblem('{"a": 1,\n "b" 2}')).toMatch(/\(line 2, column \d+\)/);
    expect(parseProblem('{"a": 1}')).toBeNull();
    // The place said once, whichever way the engine words it (defect 6: Chromium's "(line 1 column 8)" came twice).
    expect(jsonProblem("Unexpected non-whitespace character after JSON at position 7 (line 1 column 8)", '{"a":1}x')).toBe(
      'Not valid JSON: Unexpected non-whitespace character after JSON (line 1, column 8). Nothing is lost: fix it here to save.',
    );
    expect(jsonProblem("Expected ':' after property name in JSON at position 14 (line 2 column 6)", '{"a": 1,\n "b" 2}')).toBe(
      "Not valid JSON: Expected ':' after property name (line 2, column 6). Nothing is lost: fix it here to save.",
    );
    expect(documentText(draft, {})).toBe(JSON.stringify(draft, null, 2));
  });
});

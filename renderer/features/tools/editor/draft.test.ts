import { describe, expect, it } from 'vitest';
import { documentText, nextVersion, parseProblem, setPath, slugFrom, toolBody } from './draft.js';

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
    expect(documentText(draft, {})).toBe(JSON.stringify(draft, null, 2));
  });
});

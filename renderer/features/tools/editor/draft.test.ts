import { describe, expect, it } from 'vitest';
import { nextVersion, setPath, slugFrom, toolBody } from './draft.js';

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

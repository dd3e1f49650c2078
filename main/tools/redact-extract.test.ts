import { describe, expect, it } from 'vitest';
import { jsonPathProblem } from '../common/json-path-patterns.js';
import { extract } from './extract.js';
import { Redactor } from '../common/redact.js';

describe('redactor', () => {
  it('masks a value as is, URL-encoded, JSON-escaped and base64', () => {
    const secret = 'p@ss w/"ord"';
    const redactor = new Redactor([secret]);
    for (const form of [secret, encodeURIComponent(secret), JSON.stringify(secret).slice(1, -1), Buffer.from(secret).toString('base64')]) {
      expect(redactor.text(`before ${form} after`)).toBe('before ••• after');
    }
    expect(redactor.value({ nested: [`x${secret}y`] })).toEqual({ nested: ['x•••y'] });
  });

  it('leaves text alone when there is nothing to hide', () => {
    expect(new Redactor(['ab']).text('abc')).toBe('abc');
  });
});

describe('extract', () => {
  const body = { results: [{ id: 1 }, { id: 2 }], meta: { next: null } };
  it('returns one value for singular paths and a list otherwise', () => {
    expect(extract('$.results[1].id', body, '')).toEqual({ found: true, value: 2 });
    expect(extract('$.results[*].id', body, '')).toEqual({ found: true, value: [1, 2] });
    expect(extract('$..id', body, '')).toEqual({ found: true, value: [1, 2] });
    expect(extract('$.meta.next', body, '')).toEqual({ found: true, value: null });
    expect(extract('$.missing', body, '')).toEqual({ found: false, value: null });
    expect(extract('$.results[?@.id > 5]', body, '')).toEqual({ found: false, value: [] });
  });

  it('uses the first capture group of a regex, else the whole match', () => {
    expect(extract('/id=(\\d+)/', null, 'x id=42 y')).toEqual({ found: true, value: '42' });
    expect(extract('/\\d+/g', null, 'x 42 y')).toEqual({ found: true, value: '42' });
    expect(extract('/nope/', null, 'x')).toEqual({ found: false, value: null });
  });

  it('explains invalid JSONPath', () => {
    expect(jsonPathProblem('$.a[')).not.toBeNull();
    expect(jsonPathProblem('$.a[0]')).toBeNull();
  });
});

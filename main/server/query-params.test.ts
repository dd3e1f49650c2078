import { Type } from '@sinclair/typebox';
import { describe, expect, it } from 'vitest';
import { coerceQuery } from './query-params.js';

const schema = Type.Object({
  includeDisabled: Type.Boolean(),
  pageSize: Type.Integer(),
  bundleIDs: Type.Array(Type.String()),
  q: Type.String(),
  tools: Type.Object({ mode: Type.String() }),
});

describe('query coercion', () => {
  it('turns text into the declared types', () => {
    const query = new URLSearchParams('includeDisabled=true&pageSize=50&bundleIDs=a,b&bundleIDs=c&q=42');
    expect(coerceQuery(schema, query)).toEqual({ includeDisabled: true, pageSize: 50, bundleIDs: ['a', 'b', 'c'], q: '42' });
  });

  it('leaves values it cannot convert as text, for validation to reject', () => {
    const query = new URLSearchParams('includeDisabled=maybe&pageSize=ten&extra=1');
    expect(coerceQuery(schema, query)).toEqual({ includeDisabled: 'maybe', pageSize: 'ten', extra: '1' });
  });

  it('does not turn an empty number into zero', () => {
    expect(coerceQuery(schema, new URLSearchParams('pageSize='))).toEqual({ pageSize: '' });
  });

  it('reads an object as the JSON the window sends, and leaves text that is not JSON for validation', () => {
    expect(coerceQuery(schema, new URLSearchParams({ tools: '{"mode":"auto"}' }))).toEqual({ tools: { mode: 'auto' } });
    expect(coerceQuery(schema, new URLSearchParams({ tools: '{mode' }))).toEqual({ tools: '{mode' });
  });
});

import { describe, expect, it, vi } from 'vitest';
import { compileSchemaOnce, createAjv } from './validation.js';

describe('compileSchemaOnce: people’s schemas compiled once each', () => {
  it('the same schema sent again as a new object (a draft tried again) is not compiled again', () => {
    const ajv = createAjv({ strict: false, peoplesSchemas: true });
    const compile = vi.spyOn(ajv, 'compile');
    const schema = () => ({ type: 'object', properties: { city: { type: 'string' } }, required: ['city'] });
    const first = compileSchemaOnce(ajv, schema());
    const again = compileSchemaOnce(ajv, schema());
    expect(again).toBe(first);
    expect(compile).toHaveBeenCalledTimes(1);
    expect(again({ city: 'Oslo' })).toBe(true);
    expect(again({ city: 3 })).toBe(false);
  });

  it('two schemas with the same $id and different rules each check by their own (ajv keeps neither)', () => {
    const ajv = createAjv({ strict: false, peoplesSchemas: true });
    const text = compileSchemaOnce(ajv, { $id: 'https://example.com/city', type: 'string' });
    const number = compileSchemaOnce(ajv, { $id: 'https://example.com/city', type: 'number' });
    expect([text('Oslo'), text(3), number('Oslo'), number(3)]).toEqual([true, false, false, true]);
    expect(ajv.getSchema('https://example.com/city')).toBeUndefined();
  });

  it('a schema that cannot be compiled says why every time, and is not remembered as good', () => {
    const ajv = createAjv({ strict: false, peoplesSchemas: true });
    const broken = { type: 'object', properties: { a: { $ref: '#/$defs/missing' } } };
    expect(() => compileSchemaOnce(ajv, broken)).toThrow(/missing/);
    expect(() => compileSchemaOnce(ajv, structuredClone(broken))).toThrow(/missing/);
  });

  it('keeps a bounded number of texts: past the bound, older ones are compiled again', () => {
    const ajv = createAjv({ strict: false, peoplesSchemas: true });
    const compile = vi.spyOn(ajv, 'compile');
    for (let n = 0; n < 100; n++) compileSchemaOnce(ajv, { type: 'object', properties: { [`field${n}`]: { type: 'string' } } });
    compileSchemaOnce(ajv, { type: 'object', properties: { field0: { type: 'string' } } });
    expect(compile).toHaveBeenCalledTimes(101);
  });
});

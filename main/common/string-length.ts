import { _, str, type Ajv2020, type KeywordCxt } from 'ajv/dist/2020.js';
import { useFunc } from 'ajv/dist/compile/util.js';
import ucs2lengthModule from 'ajv/dist/runtime/ucs2length.js';

// CommonJS with a default export, unwrapped differently by bundlers and Node's ESM loader (as ajv-formats is).
const ucs2length = ((ucs2lengthModule as unknown as { default?: unknown }).default ?? ucs2lengthModule) as typeof ucs2lengthModule;

/**
 * `maxLength` and `minLength` as JSON Schema says (characters are code points), counted only when the answer is
 * not plain from the string's length: a code point is one or two UTF-16 units, so a string of at most `limit`
 * units has at most `limit` characters, and one of at least `2 × limit` units has at least `limit`. ajv counts
 * every string it checks, walking it in JavaScript: ~9 ms a megabyte on the core's thread, for a 13 MB
 * description to import or a 27 MB bundle in base64 each time one was sent.
 */
export function addQuickStringLengths(ajv: Ajv2020): void {
  ajv.removeKeyword('maxLength');
  ajv.removeKeyword('minLength');
  ajv.addKeyword({
    keyword: ['maxLength', 'minLength'],
    type: 'string',
    schemaType: 'number',
    // The same words as ajv's own, which people read and tests match.
    error: {
      message: ({ keyword, schemaCode }) => str`must NOT have ${keyword === 'maxLength' ? 'more' : 'fewer'} than ${schemaCode} characters`,
      params: ({ schemaCode }) => _`{limit: ${schemaCode}}`,
    },
    code(cxt: KeywordCxt) {
      const { keyword, data, schemaCode } = cxt;
      const count = useFunc(cxt.gen, ucs2length);
      cxt.fail(
        keyword === 'maxLength'
          ? _`${data}.length > ${schemaCode} && (${data}.length >= 2 * ${schemaCode} + 2 || ${count}(${data}) > ${schemaCode})`
          : _`${data}.length < ${schemaCode} || (${data}.length < 2 * ${schemaCode} && ${count}(${data}) < ${schemaCode})`,
      );
    },
  });
}

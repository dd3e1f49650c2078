import { describe, expect, it } from 'vitest';
import { compileLinear, linearRegexProblem } from '../common/linear-regex.js';
import { json, startLoopbackServer } from '../../testing/harness/loopback-server.js';
import { expectError, expectOk, invokeHarness } from '../../testing/harness/invoke-harness.js';

// `^(a+)+$` against "aaaa…!" takes 2^n steps on a backtracking engine:
// 32 of them froze a host for 96 s. On the linear engine it is instant.
const CATASTROPHIC = '^(a+)+$';
const HOSTILE = `${'a'.repeat(40)}!`;

describe('patterns people and servers supply run in linear time', () => {
  it('an argSchema pattern refuses a hostile argument at once (invoke and checkArgs)', async () => {
    const server = await startLoopbackServer({ '/echo': (_request, response) => json(response, 200, { ok: true }) });
    const h = await invokeHarness([server.host]);
    await h.putHttpTool('guarded', { urlTemplate: `${server.base}/echo` }, {
      argSchema: { type: 'object', properties: { word: { type: 'string', pattern: CATASTROPHIC } }, patternProperties: { '^(x+)+$': { type: 'number' } } },
    });
    const invoke = (args: Record<string, unknown>) => h.failure('tools.invoke', { bundleID: h.bundleID, toolSlug: 'guarded', version: 'v1', args });
    const refused = await invoke({ word: HOSTILE });
    expect(refused).toMatchObject({ code: 'invalid_args', message: expect.stringContaining('must match the pattern') as unknown });
    const keyed = await invoke({ [`${'x'.repeat(40)}!`]: 1, word: 'aaa', ['x'.repeat(40)]: 'not a number' });
    expect(keyed.details).toEqual({ issues: [{ path: `/${'x'.repeat(40)}`, message: 'must be a number' }] });
    expectOk(await h.invoke('guarded', { word: 'aaaa' }));
    const issues = await h.call('tools.checkArgs', { bundleID: h.bundleID, toolSlug: 'guarded', version: 'v1', args: { word: HOSTILE } });
    expect(issues.issues).toEqual([{ path: '/word', message: expect.stringContaining('must match the pattern') as unknown }]);
  });

  it('an outputSchema pattern checks a hostile response at once', async () => {
    const server = await startLoopbackServer({ '/evil': (_request, response) => json(response, 200, { word: HOSTILE }) });
    const h = await invokeHarness([server.host]);
    await h.putHttpTool('checked', { urlTemplate: `${server.base}/evil` }, {
      outputSchema: { type: 'object', properties: { word: { type: 'string', pattern: CATASTROPHIC } } },
    });
    expectError(await h.invoke('checked'), 'output_invalid');
  });

  it('a /regex/ extractExpr runs on a hostile response at once', async () => {
    const server = await startLoopbackServer({ '/evil': (_request, response) => response.end(HOSTILE) });
    const h = await invokeHarness([server.host]);
    await h.putHttpTool('extracting', { urlTemplate: `${server.base}/evil`, extractExpr: `/${CATASTROPHIC}/` });
    expectError(await h.invoke('extracting'), 'extract_failed');
  });

  it('a pattern the linear engine cannot run is refused when the tool is saved, at its field, with a sentence', async () => {
    const h = await invokeHarness([]);
    const put = (argSchema: Record<string, unknown>, impl: Record<string, unknown> = {}) =>
      h.failure('tools.put', { bundleID: h.bundleID, toolSlug: 'bad', version: 'v1', tool: { displayName: 'Bad', type: 'http', argSchema, impl: { method: 'GET', urlTemplate: 'https://example.com/', ...impl } } });
    const backreference = await put({ type: 'object', properties: { pair: { type: 'string', pattern: '^(a)\\1$' } } });
    expect(backreference.code).toBe('invalid_params');
    expect(backreference.details).toEqual({ issues: [{ path: '/argSchema/properties/pair/pattern', message: expect.stringMatching(/^uses a backreference .* does not have; rewrite the pattern without it$/) as unknown }] });
    const lookahead = await put({ type: 'object', patternProperties: { '^(?!x)': { type: 'string' } } });
    expect(lookahead.details).toEqual({ issues: [{ path: '/argSchema/patternProperties/^(?!x)', message: expect.stringContaining('uses lookahead or lookbehind') as unknown }] });
    const extract = await put({ type: 'object' }, { extractExpr: '/(?<=id=)\\d+/' });
    expect(extract.details).toEqual({ issues: [{ path: '/impl/extractExpr', message: expect.stringContaining('uses lookahead or lookbehind') as unknown }] });
    const broken = await put({ type: 'object', properties: { x: { type: 'string', pattern: '[a-' } } });
    expect(broken.details).toEqual({ issues: [{ path: '/argSchema/properties/x/pattern', message: expect.stringContaining('is not a valid regular expression') as unknown }] });
    // Deep in a list, after parts walked whole: the path is the pattern's own.
    const listed = await put({ type: 'object', properties: { a: { type: 'string', pattern: '^a$' }, b: { allOf: [{ properties: { ok: { pattern: '^[a-z/~]+$' } } }, { prefixItems: [{ type: 'string' }, { pattern: '^(b)\\1$' }] }] } } });
    expect(listed.details).toEqual({ issues: [{ path: '/argSchema/properties/b/allOf/1/prefixItems/1/pattern', message: expect.stringContaining('uses a backreference') as unknown }] });
  });
});

describe('the linear engine reads JavaScript patterns', () => {
  it('takes \\u escapes, Unicode classes and flags as JavaScript does', () => {
    expect(compileLinear('^\\u00e9t\\u{E9}$').test('été')).toBe(true);
    expect(compileLinear('^\\p{L}+$').test('Zürich')).toBe(true);
    expect(compileLinear('^abc$', 'i').test('ABC')).toBe(true);
    expect(compileLinear('b').test('abc')).toBe(true);
    expect(compileLinear('\\\\u0041').test('\\u0041')).toBe(true);
    expect(linearRegexProblem('^[A-Za-z_][A-Za-z0-9_]*$')).toBeNull();
    expect(linearRegexProblem('(?<year>\\d{4})-\\k<year>')).toMatch(/backreference/);
  });
});

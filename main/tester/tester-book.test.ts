import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { expectOk, invokeHarness } from '../../testing/harness/invoke-harness.js';
import { json, startLoopbackServer } from '../../testing/harness/loopback-server.js';

const SECRET = 'tok-"quoted"-secret-77';

async function testerSubject() {
  const server = await startLoopbackServer({
    '/echo': (request, response) => json(response, 200, { url: request.url, auth: request.headers.authorization }),
    '/big': (_request, response) => json(response, 200, { items: Array.from({ length: 20_000 }, (_, index) => ({ index, name: `item ${index}` })) }),
  });
  const subject = await invokeHarness([server.host]);
  await subject.call('secrets.put', { name: 'ECHO_KEY', value: SECRET });
  const argSchema = { type: 'object', properties: { word: { type: 'string' } } };
  await subject.putHttpTool('echo', { urlTemplate: `${server.base}/echo`, query: { w: '${word}' }, auth: { kind: 'bearer', token: '${secret.ECHO_KEY}' } }, { argSchema });
  const address = { bundleID: subject.bundleID, toolSlug: 'echo' };
  const run = (word: string, version = 'v1') => subject.call('tools.invoke', { ...address, version, args: { word }, keepInHistory: true });
  const folder = path.join(subject.dataDir, 'tester');
  return { subject, server, address, run, folder, argSchema };
}

describe('the tester history', () => {
  it('keeps runs asked for, newest first across versions, with secrets masked in what is kept', async () => {
    const { subject, server, address, run, argSchema } = await testerSubject();
    await run('one');
    await subject.call('tools.invoke', { ...address, version: 'v1', args: { word: 'not kept' } });
    await subject.call('tools.put', { ...address, version: 'v2', tool: { displayName: 'echo', type: 'http', argSchema, impl: { method: 'GET', urlTemplate: `${server.base}/echo` } } });
    await run('two', 'v2');

    const book = await subject.call('tester.book', address);
    expect(book.runs.map((entry) => [entry.version, entry.args])).toEqual([
      ['v2', { word: 'two' }],
      ['v1', { word: 'one' }],
    ]);
    expect(expectOk(book.runs[1]!.result).value).toEqual({ url: '/echo?w=one', auth: 'Bearer •••' });
    const files = await readdir(path.join(subject.dataDir, 'tester'));
    const text = await readFile(path.join(subject.dataDir, 'tester', files.find((name) => name.endsWith('.json'))!), 'utf8');
    expect(text).not.toContain('quoted');
    // The file is named by a hash, never by the slug.
    expect(files.every((name) => /^[0-9a-f]{32}\.json/.test(name))).toBe(true);
  });

  it('keeps the last 50 runs, and a big result as a preview without its trace', async () => {
    const { subject, server, address, run } = await testerSubject();
    for (let index = 0; index < 52; index++) await run(`w${index}`);
    const book = await subject.call('tester.book', address);
    expect(book.runs).toHaveLength(50);
    expect(book.runs[0]!.args).toEqual({ word: 'w51' });
    expect(book.runs.at(-1)!.args).toEqual({ word: 'w2' });

    await subject.putHttpTool('big', { urlTemplate: `${server.base}/big` });
    const whole = await subject.call('tools.invoke', { bundleID: subject.bundleID, toolSlug: 'big', version: 'v1', trace: true, keepInHistory: true });
    expect(expectOk(whole).value).toMatchObject({ items: expect.any(Array) as unknown });
    const [kept] = (await subject.call('tester.book', { bundleID: subject.bundleID, toolSlug: 'big' })).runs;
    expect(kept!.cut).toBe(true);
    expect(kept!.result).not.toHaveProperty('trace');
    const preview = expectOk(kept!.result).value as string;
    expect(preview.startsWith('{\n  "items": [')).toBe(true);
    expect(preview).toMatch(/characters; the rest was not kept\)$/);
  });

  it('saves, replaces and deletes examples by name; hostile names are names like any other', async () => {
    const { subject, address } = await testerSubject();
    await subject.call('tester.saveExample', { ...address, name: 'Paris', args: { word: 'paris' } });
    await subject.call('tester.saveExample', { ...address, name: '__proto__', args: { word: 'x' } });
    const replaced = await subject.call('tester.saveExample', { ...address, name: 'Paris', args: { word: 'Paris, FR' } });
    expect(replaced.examples.map((example) => [example.name, example.args])).toEqual([
      ['__proto__', { word: 'x' }],
      ['Paris', { word: 'Paris, FR' }],
    ]);
    const left = await subject.call('tester.deleteExample', { ...address, name: '__proto__' });
    expect(left.examples.map((example) => example.name)).toEqual(['Paris']);
    expect((await subject.failure('tester.deleteExample', { ...address, name: 'nope' })).code).toBe('not_found');
    expect((await subject.failure('tester.saveExample', { ...address, name: '   ', args: {} })).code).toBe('invalid_params');
    expect((await subject.failure('tester.saveExample', { ...address, name: 'x\uD800', args: {} })).code).toBe('invalid_params');
  });

  it('sets a file it cannot use aside (never deletes it), and a history it cannot write does not hide the run', async () => {
    const { subject, address, run, folder } = await testerSubject();
    await run('first');
    const [name] = await readdir(folder);
    const file = path.join(folder, name!);
    await writeFile(file, '{"runs": "garbled');
    expect(await subject.call('tester.book', address)).toEqual({ runs: [], examples: [] });
    await run('after');
    const names = await readdir(folder);
    expect(names.filter((entry) => entry.includes('.unreadable-'))).toHaveLength(1);
    expect((await subject.call('tester.book', address)).runs.map((entry) => entry.args)).toEqual([{ word: 'after' }]);

    // A folder in the file's place is set aside the same way.
    await rm(file);
    await mkdir(file);
    await run('past the folder');
    expect((await readdir(folder)).filter((entry) => entry.includes('.unreadable-'))).toHaveLength(2);

    // A file where the history folder should be: the run still answers, and says why it was not kept.
    await rm(folder, { recursive: true });
    await writeFile(folder, 'not a folder');
    const result = await run('unkept');
    expect(expectOk(result).value).toMatchObject({ url: '/echo?w=unkept' });
    expect(result.notKept).toBe('Could not keep the tester history: a file is in the way of a folder (EEXIST) — move that file away and try again.');
  });
});

import { mkdir, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { expectError, expectOk } from '../../../testing/harness/invoke-harness.js';
import { manualClock, startTestCore } from '../../../testing/harness/test-core.js';
import { tempDirForTest } from '../../../testing/harness/test-temp-dir.js';

const CORE = '01a2008d-7400-7000-8000-03e7f090115c';

async function core(options: Parameters<typeof startTestCore>[0] = {}) {
  const subject = await startTestCore(options);
  const invoke = (toolSlug: string, args: Record<string, unknown> = {}, timeoutMs?: number) =>
    subject.call('tools.invoke', { bundleID: CORE, toolSlug, version: 'v1', args, ...(timeoutMs ? { timeoutMs } : {}) });
  return { ...subject, invoke };
}

describe('the Core bundle', () => {
  it('is available now that its functions are registered', async () => {
    const { call } = await core();
    const tools = (await call('tools.list', { bundleIDs: [CORE] })).tools;
    expect(tools.map((tool) => [tool.slug, tool.available])).toEqual(expect.arrayContaining([['calculator', true], ['current-time', true]]));
  });

  it('current-time answers in the asked time zone, and explains a bad one', async () => {
    const { invoke } = await core({ clock: manualClock('2026-07-01T12:00:00.000Z') });
    const paris = expectOk(await invoke('current-time', { timeZone: 'Europe/Paris' }));
    expect(paris.value).toMatchObject({ iso: '2026-07-01T12:00:00.000Z', timeZone: 'Europe/Paris', unixMs: Date.parse('2026-07-01T12:00:00.000Z') });
    expect((paris.value as { formatted: string }).formatted).toContain('14:00:00');
    expect(expectError(await invoke('current-time', { timeZone: 'Mars/Olympus' }), 'local_error').message).toContain('not a time zone');
  });

  it('calculator computes, and reports a bad expression as local_error', async () => {
    const { invoke } = await core();
    expect(expectOk(await invoke('calculator', { expression: '(2 + 3) * 4' })).value).toEqual({ value: 20 });
    expect(expectError(await invoke('calculator', { expression: 'require("fs")' }), 'local_error').message).toContain('Calculator failed');
  });

  it('ask-user outside a chat explains where it works', async () => {
    const { invoke } = await core();
    expect(expectError(await invoke('ask-user', { question: 'Which city?' }), 'local_error').message).toContain('inside a chat');
  });

  it('read-text-file reads only inside allowed folders, through symlinks too', async () => {
    const { invoke, call } = await core();
    const allowed = await tempDirForTest();
    const outside = await tempDirForTest();
    await writeFile(path.join(allowed, 'notes.txt'), 'hello from the notes');
    await writeFile(path.join(outside, 'secret.txt'), 'do not read');
    await mkdir(path.join(allowed, 'sub'));
    await symlink(path.join(outside, 'secret.txt'), path.join(allowed, 'sub', 'link.txt'));

    expect(expectError(await invoke('read-text-file', { path: path.join(allowed, 'notes.txt') }), 'local_error').message).toContain(
      'No folder is allowed',
    );
    await call('settings.patch', { readableFolders: [allowed] });
    const read = expectOk(await invoke('read-text-file', { path: path.join(allowed, 'notes.txt'), maxBytes: 10 }));
    expect(read.value).toMatchObject({ text: 'hello from', bytes: 10, truncated: true });
    for (const attempt of [path.join(outside, 'secret.txt'), path.join(allowed, 'sub', 'link.txt'), path.join(allowed, '..', path.basename(outside), 'secret.txt')]) {
      expect(expectError(await invoke('read-text-file', { path: attempt }), 'local_error').message, attempt).toContain('outside the folders');
    }
  });

  it('read-text-file does not tell whether a file outside the allowed folders exists', async () => {
    const { invoke, call } = await core();
    const allowed = await tempDirForTest();
    const outside = await tempDirForTest();
    await writeFile(path.join(outside, 'exists.txt'), 'x');
    await call('settings.patch', { readableFolders: [allowed] });
    const message = async (file: string) => expectError(await invoke('read-text-file', { path: file }), 'local_error').message;
    const existing = await message(path.join(outside, 'exists.txt'));
    const missing = await message(path.join(outside, 'missing.txt'));
    expect(existing).toContain('outside the folders');
    expect(missing).toBe(existing.replace('exists.txt', 'missing.txt'));
    // Inside, a missing file is simply missing.
    expect(await message(path.join(allowed, 'missing.txt'))).toContain('There is no file');
  });

  it('cuts off a local function that never settles', async () => {
    const subject = await core();
    // ask-user with an askUser that never answers: the deadline still holds.
    const record = await subject.core.store.requireTool(CORE, 'ask-user', 'v1');
    const result = await subject.core.invoker.invoke(
      record,
      { args: { question: 'Anyone?' }, timeoutMs: 100 },
      { caller: { kind: 'person' }, signal: new AbortController().signal, askUser: () => new Promise<string>(() => {}) },
    );
    expect(expectError(result, 'timeout').message).toContain('100 ms');
  });
});

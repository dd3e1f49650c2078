import { rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { makeTempDir } from '../../testing/cores/temp-dir.js';
import { isFileLockHeld, tryHoldFileLock, withFileLock } from './file-lock.js';

let temp: Awaited<ReturnType<typeof makeTempDir>> | undefined;
afterEach(() => temp?.cleanup());

describe('file locks', () => {
  it('makes the missing locks folder, private, when the first lock needs it', async () => {
    temp = await makeTempDir('toolbelt-lock-');
    const target = path.join(temp.dir, 'locks', 'nested', 'bundle-x');
    expect(await withFileLock(target, async () => 'done')).toBe('done');
    expect((await stat(path.dirname(target))).mode & 0o777).toBe(0o700);
  });

  it('takes a lock at once after its folder was removed between two writes', async () => {
    temp = await makeTempDir('toolbelt-lock-');
    const target = path.join(temp.dir, 'locks', 'bundle-y');
    await withFileLock(target, async () => undefined);
    await rm(path.dirname(target), { recursive: true });
    const started = Date.now();
    await withFileLock(target, async () => undefined);
    // Retrying the missing folder for the lock's whole budget would take seconds.
    expect(Date.now() - started).toBeLessThan(1_000);
  });

  it('holds a long lock others can see and cannot take', async () => {
    temp = await makeTempDir('toolbelt-lock-');
    const target = path.join(temp.dir, 'fresh-locks', 'chat-1');
    const release = await tryHoldFileLock(target);
    expect(release).not.toBeNull();
    expect(await isFileLockHeld(target)).toBe(true);
    expect(await tryHoldFileLock(target)).toBeNull();
    await release!();
    expect(await isFileLockHeld(target)).toBe(false);
  });
});

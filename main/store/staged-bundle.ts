import { open, readdir, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { newUuidV7 } from '../common/uuid-v7.js';
import { ToolbeltError } from '../../shared/errors.js';
import { makePrivateFolder, PRIVATE_FILE_MODE } from '../common/json-files.js';

/** Leftovers of a staging whose writer cannot be told are cleared after this long; younger ones may be another process's. */
const ABANDONED_AFTER_MS = 60 * 60 * 1000;

/** A staging folder is named `<uuid>.<pid>`: the process that writes it, so a crash's leftovers are known at once. */
const STAGING_NAME = /^[0-9a-f-]{36}\.(\d{1,10})$/;

/** Whether a process with this id is running (on this machine: the data folder is local). */
function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it runs, as another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * A new bundle written whole before it appears: its files go into a folder
 * beside `bundles/`, which is renamed into place in one step. A crash before
 * the rename leaves no bundle at all (only the staging folder, cleared
 * later), never half of one.
 */
export async function writeStagedBundle(root: string, target: string, files: { relativePath: string; text: string }[]): Promise<void> {
  const staging = path.join(root, 'staging', `${newUuidV7()}.${process.pid}`);
  await makePrivateFolder(path.join(staging, 'tools'));
  await makePrivateFolder(path.dirname(target));
  try {
    await writeAll(files, (file) => writeNewFile(path.join(staging, file.relativePath), file.text));
    // rename() refuses to replace a folder that has files: a bundle that appeared meanwhile is never overwritten.
    await rename(staging, target);
  } catch (error) {
    await rm(staging, { recursive: true, force: true }).catch(() => undefined);
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOTEMPTY' || code === 'EEXIST' || code === 'ENOTDIR') {
      throw new ToolbeltError('conflict', `Something is already at ${path.relative(root, target)}: the bundle was not written over it. Import into a new bundle, or remove that folder first.`);
    }
    throw error;
  }
}

/**
 * A file in the staging folder: nobody reads it before the folder's rename, so it is written in place (no temporary
 * file and rename of its own, half of each write's system calls), then synced so that the rename never shows an
 * empty file after a crash. 'wx' refuses anything already there, a planted link included.
 */
async function writeNewFile(file: string, text: string): Promise<void> {
  const handle = await open(file, 'wx', PRIVATE_FILE_MODE);
  try {
    await handle.writeFile(text, 'utf8');
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** How many files are written at once: each waits on the disk (fsync) for most of its time. */
const WRITES_AT_ONCE = 16;

/** Writes every file, WRITES_AT_ONCE at a time; after a failure no new one starts, and it throws once all have stopped. */
async function writeAll<T>(files: T[], write: (file: T) => Promise<void>): Promise<void> {
  let next = 0;
  let failure: { error: unknown } | null = null;
  const worker = async () => {
    while (!failure && next < files.length) {
      const file = files[next++]!;
      try {
        await write(file);
      } catch (error) {
        failure ??= { error };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(WRITES_AT_ONCE, files.length) }, worker));
  if (failure) throw (failure as { error: unknown }).error;
}

/**
 * Removes staging folders nobody will finish: those whose writer is no longer
 * running (a kill -9 mid-import), at once, and any other older than an hour;
 * reports how many.
 */
export async function clearAbandonedStaging(root: string, now = Date.now()): Promise<number> {
  const folder = path.join(root, 'staging');
  const entries = await readdir(folder).catch(() => [] as string[]);
  let cleared = 0;
  for (const entry of entries) {
    const full = path.join(folder, entry);
    const info = await stat(full).catch(() => null);
    if (!info) continue;
    const writer = STAGING_NAME.exec(entry)?.[1];
    const writerGone = writer !== undefined && Number(writer) !== process.pid && !isRunning(Number(writer));
    if (!writerGone && now - info.mtimeMs < ABANDONED_AFTER_MS) continue;
    await rm(full, { recursive: true, force: true });
    cleared++;
  }
  return cleared;
}

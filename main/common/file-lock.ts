import fs from 'node:fs';
import path from 'node:path';
import lockfile from 'proper-lockfile';
import { ToolbeltError } from '../../shared/errors.js';
import { PRIVATE_FOLDER_MODE } from './json-files.js';

type Done = (error: NodeJS.ErrnoException | null) => void;

/**
 * proper-lockfile makes each lock as a folder; ours are private like everything else. The folder the locks live in
 * is made when a lock finds it missing (proper-lockfile would retry that error for its whole budget), not before
 * every lock: two syscalls fewer on each write of the store.
 */
const privateLockFs = {
  ...fs,
  mkdir: (folder: string, callback: Done) =>
    fs.mkdir(folder, { mode: PRIVATE_FOLDER_MODE }, (error) => {
      if (error?.code !== 'ENOENT') return callback(error);
      fs.mkdir(path.dirname(folder), { recursive: true, mode: PRIVATE_FOLDER_MODE }, (parentError) =>
        parentError ? callback(parentError) : fs.mkdir(folder, { mode: PRIVATE_FOLDER_MODE }, callback),
      );
    }),
};

const LOCK_OPTIONS = {
  fs: privateLockFs,
  realpath: false,
  // A holder refreshes the lock every second; one untouched for four is
  // a crashed process's, and is taken over. Retries outlast that window.
  stale: 4_000,
  update: 1_000,
  retries: { retries: 200, factor: 1.3, minTimeout: 2, maxTimeout: 50, randomize: true },
};


/**
 * Runs `work` while holding a lock that other Toolbelt processes on the same
 * data folder respect (a lock directory, as proper-lockfile makes it, with
 * staleness detection so a crashed holder does not block forever).
 */
export async function withFileLock<T>(target: string, work: () => Promise<T>): Promise<T> {
  let release: () => Promise<void>;
  try {
    release = await lockfile.lock(target, LOCK_OPTIONS);
  } catch (error) {
    throw new ToolbeltError('unavailable', `Another Toolbelt process is busy with this data; try again. (${(error as Error).message})`);
  }
  try {
    return await work();
  } finally {
    await release().catch(() => {});
  }
}

/**
 * Takes a lock for as long as the caller wants it (a chat's run), or says
 * null at once when another live process holds it. The holder keeps it
 * fresh; a crashed holder's lock goes stale and can be taken.
 */
export async function tryHoldFileLock(target: string): Promise<(() => Promise<void>) | null> {
  try {
    const release = await lockfile.lock(target, {
      ...LOCK_OPTIONS,
      retries: 0,
      // Losing the lock (a sleeping laptop, a removed folder) must not crash the app; the run just goes on.
      onCompromised: () => undefined,
    });
    return () => release().catch(() => undefined);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ELOCKED') return null;
    throw error;
  }
}

/** Whether a live process holds the lock now (a crashed holder's stale lock counts as free). */
export async function isFileLockHeld(target: string): Promise<boolean> {
  return lockfile.check(target, { realpath: false, stale: LOCK_OPTIONS.stale }).catch(() => false);
}

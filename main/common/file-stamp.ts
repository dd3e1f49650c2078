import { statSync } from 'node:fs';

/**
 * What a file is now (inode, change and modification times, size), to tell
 * whether it changed since it was last read. Writes here replace files, so
 * the inode and change time (which nobody can set back, as they can the
 * modification time) tell a change of the same size within one tick of the
 * clock. A stat in this thread: a few µs for one file, several times that
 * through the thread pool, for checks made on every call. `null`: it cannot
 * be told, so the file must be read.
 */
export function fileStamp(file: string): string | null {
  try {
    const info = statSync(file, { throwIfNoEntry: false });
    return info ? `${info.ino}:${info.ctimeMs}:${info.mtimeMs}:${info.size}` : 'none';
  } catch {
    // Cannot tell (no permission on the folder): the caller reads the file again.
    return null;
  }
}

import { ToolbeltError } from '../../shared/errors.js';

/** What went wrong on disk, in words, and what a person can do about it. */
const STORAGE_PROBLEMS: Record<string, { what: string; next: string }> = {
  ENOSPC: { what: 'disk full', next: 'free some space' },
  EDQUOT: { what: 'disk quota exceeded', next: 'free some space' },
  EROFS: { what: 'the disk is read-only', next: 'make the data folder writable' },
  EACCES: { what: 'permission denied', next: 'check the data folder’s permissions' },
  EPERM: { what: 'the operation was not permitted', next: 'check the data folder’s permissions' },
  EISDIR: { what: 'a folder is in the way of the file', next: 'move that folder away' },
  ENOTDIR: { what: 'a file is in the way of a folder', next: 'move that file away' },
  EEXIST: { what: 'a file is in the way of a folder', next: 'move that file away' },
  EBUSY: { what: 'another program holds the file', next: 'close that program' },
  EMFILE: { what: 'too many files are open', next: 'close other programs' },
  ENFILE: { what: 'too many files are open', next: 'close other programs' },
  EIO: { what: 'the disk reported an input/output error', next: 'check the disk' },
  ELOOP: { what: 'the path is a symbolic link', next: 'replace the link with the file itself' },
};

function errnoOf(error: unknown): string | undefined {
  const code = (error as NodeJS.ErrnoException | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

/** True for the file-system failures a person can act on (as opposed to bugs). */
export function isStorageError(error: unknown): boolean {
  const code = errnoOf(error);
  return code !== undefined && Object.hasOwn(STORAGE_PROBLEMS, code);
}

/**
 * A failed write as `storage_failed`: "Could not save the chat: disk full
 * (ENOSPC) — free some space and send again." `lead` says what failed.
 * Paths and stack traces stay in the log, never in the message.
 */
export function storageFailure(error: unknown, lead: string, retry = 'try again'): ToolbeltError {
  if (error instanceof ToolbeltError) return error;
  const code = errnoOf(error);
  const known = code && Object.hasOwn(STORAGE_PROBLEMS, code) ? STORAGE_PROBLEMS[code] : undefined;
  const reason = known ? `${known.what} (${code})` : code ? `error ${code}` : 'an unexpected error';
  const next = known ? `${known.next} and ${retry}` : retry;
  return new ToolbeltError('storage_failed', `${lead}: ${reason} — ${next}.`, code ? { errno: code } : undefined);
}

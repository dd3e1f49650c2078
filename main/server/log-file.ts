import { closeSync, fstatSync, mkdirSync, openSync, renameSync, writeSync } from 'node:fs';
import path from 'node:path';

/** A log file past this many bytes is moved to `<file>.1` (one old file kept), so the log never grows without bound. */
export const LOG_FILE_LIMIT_BYTES = 5 * 1024 * 1024;

export interface LogFileWriter {
  write(line: string): void;
  close(): void;
}

/**
 * JSON log lines appended to a file (owner-only), for `npm start`, whose
 * terminal is for people. Written synchronously: a line logged just before
 * `process.exit` or a crash is on disk, and log lines are few. A file that
 * cannot be written is said once on stderr, and the lines go to stderr from
 * then on: nothing is lost silently.
 */
export function openLogFile(file: string, options: { limitBytes?: number; stderr?: (text: string) => void } = {}): LogFileWriter {
  const limit = options.limitBytes ?? LOG_FILE_LIMIT_BYTES;
  const stderr = options.stderr ?? ((text: string) => process.stderr.write(text));
  let fd: number | null = null;
  let failed = false;
  let written = 0;

  const fail = (error: unknown) => {
    if (fd !== null) closeQuietly(fd);
    fd = null;
    if (failed) return;
    failed = true;
    stderr(`Toolbelt cannot write its log to ${file} (${(error as NodeJS.ErrnoException).code ?? String(error)}); log lines go here instead.\n`);
  };

  const open = () => {
    try {
      mkdirSync(path.dirname(file), { recursive: true });
      fd = openSync(file, 'a', 0o600);
      written = fstatSync(fd).size;
      if (written < limit) return;
      closeSync(fd);
      renameSync(file, `${file}.1`);
      fd = openSync(file, 'a', 0o600);
      written = 0;
    } catch (error) {
      fail(error);
    }
  };
  open();

  return {
    write(line) {
      if (fd === null) {
        stderr(line + '\n');
        return;
      }
      try {
        written += writeSync(fd, line + '\n');
      } catch (error) {
        fail(error);
        stderr(line + '\n');
        return;
      }
      if (written < limit) return;
      closeQuietly(fd);
      open();
    },
    close() {
      if (fd !== null) closeQuietly(fd);
      fd = null;
    },
  };
}

function closeQuietly(fd: number): void {
  try {
    closeSync(fd);
  } catch {
    // Already closed or the disk is gone: nothing more to write to it.
  }
}

import { constants, readFileSync } from 'node:fs';
import { lstat, mkdir, readFile, realpath } from 'node:fs/promises';
import path from 'node:path';
import writeFileAtomicModule from 'write-file-atomic';

/** Files and folders the core makes are its user's alone, whoever made the data folder. */
export const PRIVATE_FILE_MODE = 0o600;
export const PRIVATE_FOLDER_MODE = 0o700;

/**
 * Temporary files of our atomic writers (write-file-atomic: `x.json.123456`;
 * conf's: `x.json.tmp-…`): a write in progress, or left by a crash.
 */
export const ATOMIC_TEMP_FILE = /\.json\.(?:\d{1,10}|tmp-[0-9a-z]+)$/;

// Where the platform has it, reads refuse a link as the last part of the path (ELOOP).
const NO_FOLLOW = constants.O_NOFOLLOW ?? 0;
const READ_FLAGS = constants.O_RDONLY | NO_FOLLOW;

/**
 * JSON as it goes to disk: known top-level keys in their canonical order,
 * any others after them alphabetically, nested values untouched (a JSON
 * Schema's `properties` order is meaningful), two-space indent, LF, a final
 * newline. The same object always gives the same bytes, so files diff well.
 */
export function stringifyStable(value: Record<string, unknown>, keyOrder: readonly string[]): string {
  const known = keyOrder.filter((key) => value[key] !== undefined);
  const others = Object.keys(value)
    .filter((key) => !keyOrder.includes(key) && value[key] !== undefined)
    .sort();
  const ordered: Record<string, unknown> = {};
  for (const key of [...known, ...others]) ordered[key] = value[key];
  return JSON.stringify(ordered, null, 2) + '\n';
}

export async function makePrivateFolder(folder: string): Promise<void> {
  await mkdir(folder, { recursive: true, mode: PRIVATE_FOLDER_MODE });
}

const realRoots = new Map<string, Promise<string>>();

function linkRefused(file: string, what: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`${file}: ${what} is a symbolic link; Toolbelt does not write through links`), { code: 'ELOOP' });
}

/**
 * Refuses a write that a link would send elsewhere: the file itself being a
 * link (write-file-atomic would rewrite its target), or a folder on the way
 * inside the data folder being one (it would land outside the data folder).
 */
async function refuseLinks(file: string, within: string): Promise<void> {
  const folder = path.dirname(file);
  let realRoot = realRoots.get(within);
  if (!realRoot) realRoots.set(within, (realRoot = realpath(within)));
  const [root, realFolder, info] = await Promise.all([
    realRoot,
    realpath(folder).catch(() => null),
    lstat(file).catch(() => null),
  ]);
  if (info?.isSymbolicLink()) throw linkRefused(file, 'the file');
  if (realFolder !== null && realFolder !== path.join(root, path.relative(within, folder))) throw linkRefused(file, 'a folder on its path');
}

/**
 * Temp file in the same folder, fsync, rename: a crash leaves the old file
 * or the new one, never a torn one. `within` is the data folder: nothing is
 * written through a link, so nothing lands outside it. Private by default.
 */
export async function writeFileAtomically(file: string, text: string | Buffer, options: { within: string; mode?: number }): Promise<void> {
  await refuseLinks(file, options.within);
  await writeFileAtomicModule(file, text, { fsync: true, mode: options.mode ?? PRIVATE_FILE_MODE, ...(typeof text === 'string' ? { encoding: 'utf8' as const } : {}) });
}

/** The same, making missing folders (private) first when the write finds none. */
export async function writeFileAtomicallyMakingFolders(file: string, text: string | Buffer, options: { within: string; mode?: number }): Promise<void> {
  try {
    await writeFileAtomically(file, text, options);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    await makePrivateFolder(path.dirname(file));
    await writeFileAtomically(file, text, options);
  }
}

export type JsonReadResult =
  | { ok: true; value: unknown; text: string }
  | { ok: false; reason: string; text?: string; missing?: boolean };

export async function readJsonFile(filePath: string): Promise<JsonReadResult> {
  return readFile(filePath, { encoding: 'utf8', flag: READ_FLAGS }).then(parseJsonText, readFailure);
}

/**
 * The same, except that a text `known` recognises (one already read, by its
 * digest) is not parsed again: `unchanged` instead. Re-reading a bundle this
 * process just wrote (the watcher sees its own writes) then costs the reads,
 * not a second copy of every tool in memory.
 */
export async function readJsonFileUnlessKnown(filePath: string, known: (text: string) => boolean): Promise<JsonReadResult | { ok: true; unchanged: true }> {
  let text: string;
  try {
    text = await readFile(filePath, { encoding: 'utf8', flag: READ_FLAGS });
  } catch (error) {
    return readFailure(error);
  }
  return known(text) ? { ok: true, unchanged: true } : parseJsonText(text);
}

/**
 * The same, synchronously: only for the cold load at start, where reading
 * ten thousand small files one after another is several times faster than
 * through the thread pool, and nothing else is waiting yet.
 */
export function readJsonFileSync(filePath: string): JsonReadResult {
  let text: string;
  try {
    // One call into Node's reader (open, read and close together; a start reads every tool file so, ~20% faster than
    // three). A flag may be open(2)'s number, as Node's "File system flags" says; its types name only strings.
    text = readFileSync(filePath, { encoding: 'utf8', flag: READ_FLAGS as unknown as string });
  } catch (error) {
    return readFailure(error);
  }
  return parseJsonText(text);
}

function readFailure(error: unknown): JsonReadResult {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ENOENT') return { ok: false, reason: 'the file does not exist', missing: true };
  if (code === 'ELOOP') return { ok: false, reason: 'the file is a symbolic link; Toolbelt neither reads nor writes through links, so replace it with the file itself' };
  if (code === 'EISDIR') return { ok: false, reason: 'a folder is where the file should be' };
  return { ok: false, reason: `the file cannot be read (${code ?? String(error)})` };
}

function parseJsonText(text: string): JsonReadResult {
  if (text.trim() === '') return { ok: false, reason: 'the file is empty', text };
  try {
    return { ok: true, value: JSON.parse(text) as unknown, text };
  } catch (error) {
    return { ok: false, reason: `the file is not valid JSON: ${(error as Error).message}`, text };
  }
}

import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import writeFileAtomicModule from 'write-file-atomic';

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

/**
 * Temp file in the same folder, fsync, rename: a crash leaves the old file
 * or the new one, never a torn one.
 */
export async function writeFileAtomically(filePath: string, text: string, mode = 0o644): Promise<void> {
  await writeFileAtomicModule(filePath, text, { fsync: true, mode, encoding: 'utf8' });
}

export type JsonReadResult =
  | { ok: true; value: unknown; text: string }
  | { ok: false; reason: string; text?: string; missing?: boolean };

export async function readJsonFile(filePath: string): Promise<JsonReadResult> {
  return readFile(filePath, 'utf8').then(parseJsonText, readFailure);
}

/**
 * The same, synchronously: only for the cold load at start, where reading
 * ten thousand small files one after another is several times faster than
 * through the thread pool, and nothing else is waiting yet.
 */
export function readJsonFileSync(filePath: string): JsonReadResult {
  let text: string;
  try {
    text = readFileSync(filePath, 'utf8');
  } catch (error) {
    return readFailure(error);
  }
  return parseJsonText(text);
}

function readFailure(error: unknown): JsonReadResult {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ENOENT') return { ok: false, reason: 'the file does not exist', missing: true };
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

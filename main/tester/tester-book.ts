import { createHash } from 'node:crypto';
import { rename } from 'node:fs/promises';
import path from 'node:path';
import { newUuidV7 } from '../common/uuid-v7.js';
import { ToolbeltError } from '../../shared/errors.js';
import type { InvokeResult } from '../../shared/schemas/invocation.js';
import { TesterBookSchema, type TesterBook, type TesterRun } from '../../shared/schemas/tester.js';
import type { Clock } from '../common/clock.js';
import { withFileLock } from '../common/file-lock.js';
import { makePrivateFolder, readJsonFile, stringifyStable, writeFileAtomicallyMakingFolders } from '../common/json-files.js';
import { storageFailure } from '../common/storage-errors.js';
import { compileOnFirstUse } from '../common/validation.js';
import type { Logger } from '../log.js';

/** Runs kept per tool: the newest, as many as a person looks back through. */
export const MAX_RUNS = 50;
const MAX_EXAMPLES = 100;
/** A result bigger than this (as JSON) is kept as a preview. */
const MAX_RESULT_CHARS = 256_000;
const PREVIEW_CHARS = 64_000;

/** A tool across its versions. */
export interface ToolKey {
  bundleID: string;
  slug: string;
}

const EMPTY: TesterBook = { runs: [], examples: [] };

/** What of a result is kept: all of it, or a preview of its value without the trace when it is big. */
function keptResult(result: InvokeResult): { result: InvokeResult; cut?: true } {
  const text = JSON.stringify(result);
  if (text.length <= MAX_RESULT_CHARS) return { result };
  const { trace: _trace, rpc: _rpc, ...rest } = result;
  if (!rest.ok) return { result: rest, cut: true };
  const value = JSON.stringify(rest.value, null, 2) ?? 'null';
  return { result: { ...rest, value: `${value.slice(0, PREVIEW_CHARS)}\n… (${value.length} characters; the rest was not kept)` }, cut: true };
}

/**
 * The tester's memory of each tool: its last runs and its saved examples,
 * in <dataDir>/tester/<hash of bundle and slug>.json, so they outlive a restart. Every change
 * is a locked read-modify-write (two windows may run the same tool), written
 * atomically; a file that does not hold a book is reported, and set aside
 * (renamed, never deleted) when the book next changes.
 */
export class TesterBooks {
  private readonly folder: string;
  private readonly valid = compileOnFirstUse(TesterBookSchema, { strict: false });

  constructor(
    private readonly dataDir: string,
    private readonly clock: Clock,
    private readonly log: Logger,
  ) {
    this.folder = path.join(dataDir, 'tester');
  }

  async read(tool: ToolKey): Promise<TesterBook> {
    return (await this.load(tool)).book;
  }

  /** The book, and whether the file holds something else (which a change must not write over). */
  private async load(tool: ToolKey): Promise<{ book: TesterBook; unusable: boolean }> {
    const read = await readJsonFile(this.file(tool));
    if (!read.ok) {
      if (read.missing) return { book: EMPTY, unusable: false };
      this.log.warn('a tester history file cannot be read; the tester starts afresh', { ...tool, reason: read.reason });
      return { book: EMPTY, unusable: true };
    }
    if (!this.valid(read.value)) {
      this.log.warn('a tester history file does not hold a history; the tester starts afresh', { ...tool });
      return { book: EMPTY, unusable: true };
    }
    return { book: read.value as TesterBook, unusable: false };
  }

  async record(tool: ToolKey, version: string, args: Record<string, unknown>, result: InvokeResult): Promise<TesterRun> {
    const run: TesterRun = { id: newUuidV7(), at: this.clock.now().toISOString(), version, args, ...keptResult(result) };
    await this.change(tool, (book) => ({ ...book, runs: [run, ...book.runs].slice(0, MAX_RUNS) }));
    return run;
  }

  saveExample(tool: ToolKey, name: string, args: Record<string, unknown>): Promise<TesterBook> {
    const savedAt = this.clock.now().toISOString();
    return this.change(tool, (book) => {
      const others = book.examples.filter((example) => example.name !== name);
      if (others.length >= MAX_EXAMPLES) throw new ToolbeltError('conflict', `A tool keeps at most ${MAX_EXAMPLES} examples; delete one first.`);
      return { ...book, examples: [...others, { name, args, savedAt }].sort((a, b) => a.name.localeCompare(b.name)) };
    });
  }

  deleteExample(tool: ToolKey, name: string): Promise<TesterBook> {
    return this.change(tool, (book) => {
      if (!book.examples.some((example) => example.name === name)) throw new ToolbeltError('not_found', `There is no example named "${name}" for this tool.`);
      return { ...book, examples: book.examples.filter((example) => example.name !== name) };
    });
  }

  /** Named by a hash of bundle and slug: one history across a tool's versions, and no slug in a file name. */
  private file(tool: ToolKey): string {
    const id = createHash('sha256').update(`${tool.bundleID}\u0000${tool.slug}`).digest('hex').slice(0, 32);
    return path.join(this.folder, `${id}.json`);
  }

  private async change(tool: ToolKey, edit: (book: TesterBook) => TesterBook): Promise<TesterBook> {
    const file = this.file(tool);
    const failure = (error: unknown) => storageFailure(error, 'Could not keep the tester history', 'try again');
    // Made first, so a file in its way is reported as that, not as a lock another process holds.
    await makePrivateFolder(this.folder).catch((error: unknown) => {
      throw failure(error);
    });
    return withFileLock(file, async () => {
      const { book, unusable } = await this.load(tool);
      const next = edit(book);
      try {
        // A file Toolbelt cannot use is kept beside the new one, never written over.
        if (unusable) await rename(file, `${file}.unreadable-${Date.now()}`);
        await writeFileAtomicallyMakingFolders(file, stringifyStable(next, ['runs', 'examples']), { within: this.dataDir });
      } catch (error) {
        throw failure(error);
      }
      return next;
    });
  }
}

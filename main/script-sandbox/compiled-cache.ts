import { createHash } from 'node:crypto';
import { readdir, stat, unlink } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { inBackground } from '../common/background.js';
import { readJsonFile, writeFileAtomicallyMakingFolders } from '../common/json-files.js';
import type { Logger } from '../log.js';

/** A script made ready to run: the sandbox's code, its parameters in order, or why it cannot run. */
export interface CompiledScript {
  code: string;
  parameters: string[];
  problem?: string;
}

/** Files the cache keeps before it forgets the oldest. */
const KEPT = 400;
const FORGOTTEN_AT_ONCE = 100;

/** What the transpiled code depends on besides the source: the compiler's version, and this format's. */
function compilerStamp(): string {
  try {
    return `1/${(createRequire(import.meta.url)('typescript/package.json') as { version: string }).version}`;
  } catch {
    return '1/unknown';
  }
}

const isCompiled = (value: unknown): value is CompiledScript => {
  if (!value || typeof value !== 'object') return false;
  const entry = value as Record<string, unknown>;
  return typeof entry.code === 'string' && Array.isArray(entry.parameters) && entry.parameters.every((name) => typeof name === 'string') && (entry.problem === undefined || typeof entry.problem === 'string');
};

/**
 * Transpiled scripts on disk, by a digest of their language and source (and
 * the compiler's version): the first call of a script tool after a restart
 * runs without loading the TypeScript compiler (about 170 ms). A file that
 * cannot be read, or is not a compiled script, is a miss; writes are atomic
 * and report their failures; the folder keeps at most 400 files.
 */
export class CompiledScriptCache {
  private readonly stamp = compilerStamp();

  constructor(
    private readonly folder: string,
    private readonly dataDir: string,
    private readonly log: Logger,
  ) {}

  key(language: string, source: string): string {
    return createHash('sha256').update(this.stamp).update('\n').update(language).update('\n').update(source).digest('base64url');
  }

  async read(key: string): Promise<CompiledScript | null> {
    const read = await readJsonFile(path.join(this.folder, `${key}.json`));
    return read.ok && isCompiled(read.value) ? read.value : null;
  }

  /** Kept for the next start, in the background; a failure is logged and costs only that start's compile. */
  keep(key: string, compiled: CompiledScript): void {
    inBackground(
      writeFileAtomicallyMakingFolders(path.join(this.folder, `${key}.json`), JSON.stringify(compiled), { within: this.dataDir }).then(() => this.forgetOldest()),
      (error) => this.log.warn('a transpiled script could not be kept', { error: String(error) }),
    );
  }

  private async forgetOldest(): Promise<void> {
    const names = (await readdir(this.folder)).filter((name) => name.endsWith('.json'));
    if (names.length <= KEPT) return;
    const aged = await Promise.all(names.map(async (name) => ({ name, at: (await stat(path.join(this.folder, name)).catch(() => null))?.mtimeMs ?? 0 })));
    aged.sort((a, b) => a.at - b.at);
    await Promise.all(aged.slice(0, FORGOTTEN_AT_ONCE).map((entry) => unlink(path.join(this.folder, entry.name)).catch(() => undefined)));
  }
}

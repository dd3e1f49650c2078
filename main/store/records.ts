import { readdirSync, type Dirent } from 'node:fs';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { describeIssues } from '../common/validation.js';
import type { BundleFile } from '../../shared/schemas/bundle.js';
import type { ToolFile } from '../../shared/schemas/tool.js';
import type { DocumentValidator } from './document-validation.js';
import { ATOMIC_TEMP_FILE, readJsonFile, readJsonFileSync, readJsonFileUnlessKnown, type JsonReadResult } from '../common/json-files.js';
import type { StoreLayout } from './layout.js';
import { toolIDFromFileName } from './layout.js';
import { ValidationCache } from './validation-cache.js';

/** Where a record comes from: the data folder's files, the built-ins, or an MCP server (its own id). */
export const FILES_SOURCE = 'files';
export const BUILTINS_SOURCE = 'builtins';

/** What could be read from a broken file, so a person can find it in lists. */
export interface Salvage {
  slug?: string;
  version?: string;
  displayName?: string;
}

export type BundleRecord =
  | { kind: 'valid'; bundleID: string; bundle: BundleFile; text: string; source: string }
  | { kind: 'invalid'; bundleID: string; file: string; reason: string; salvage: Salvage; text?: string; missing?: boolean };

export type ToolRecord =
  /** `digest`: the file's text as ValidationCache hashes it, to tell a rewrite that changed nothing; the text itself is not kept (GitHub's 1,200 tools are 15 MB of it). */
  | { kind: 'valid'; toolID: string; bundleID: string; tool: ToolFile; digest: string; source: string }
  | { kind: 'invalid'; toolID: string; bundleID: string; file: string; reason: string; salvage: Salvage; text?: string };

export type ValidTool = Extract<ToolRecord, { kind: 'valid' }>;

function salvage(value: unknown): Salvage {
  if (!value || typeof value !== 'object') return {};
  const source = value as Record<string, unknown>;
  const found: Salvage = {};
  for (const key of ['slug', 'version', 'displayName'] as const) {
    if (typeof source[key] === 'string') found[key] = source[key];
  }
  return found;
}

/** Reads one bundle.json; `null` when there is none (a folder being created or removed). */
export async function readBundleRecord(
  layout: StoreLayout,
  validator: DocumentValidator,
  bundleID: string,
  /** What memory holds for this bundle: handed back as it is when the file still has its text (each write re-reads it). */
  known?: BundleRecord,
): Promise<BundleRecord | null> {
  const file = layout.bundleFile(bundleID);
  const knownText = known && 'text' in known ? known.text : undefined;
  if (knownText === undefined) return bundleRecordFrom(validator, bundleID, file, await readJsonFile(file));
  const read = await readJsonFileUnlessKnown(file, (text) => text === knownText);
  return 'unchanged' in read ? known! : bundleRecordFrom(validator, bundleID, file, read);
}

export function readBundleRecordSync(layout: StoreLayout, validator: DocumentValidator, bundleID: string): BundleRecord | null {
  const file = layout.bundleFile(bundleID);
  return bundleRecordFrom(validator, bundleID, file, readJsonFileSync(file));
}

function bundleRecordFrom(validator: DocumentValidator, bundleID: string, file: string, read: JsonReadResult): BundleRecord | null {
  if (!read.ok) {
    if (read.missing) return null;
    return { kind: 'invalid', bundleID, file, reason: read.reason, salvage: {}, text: read.text };
  }
  const checked = validator.bundleFile(read.value);
  if (!checked.ok) {
    return { kind: 'invalid', bundleID, file, reason: describeIssues(checked.issues), salvage: salvage(read.value), text: read.text };
  }
  if (checked.value.bundleID !== bundleID) {
    return { kind: 'invalid', bundleID, file, reason: `bundleID ${checked.value.bundleID} does not match its folder`, salvage: salvage(read.value), text: read.text };
  }
  if (checked.value.isBuiltIn) {
    return { kind: 'invalid', bundleID, file, reason: 'isBuiltIn is true, but built-in bundles ship with the app', salvage: salvage(read.value), text: read.text };
  }
  return { kind: 'valid', bundleID, bundle: checked.value, text: read.text, source: FILES_SOURCE };
}

/**
 * Reads one tool file; `null` when it is gone. A text that passed before, or
 * that Toolbelt wrote from a definition it had checked (an import's files,
 * read back once written), skips the deep checks: GitHub's 1,200 imported
 * tools checked a second time made ~200 MB of garbage and a third of the
 * import's time.
 */
export async function readToolRecord(
  layout: StoreLayout,
  validator: DocumentValidator,
  bundleID: string,
  toolID: string,
  cache: ValidationCache,
  /** What memory holds for this file: handed back as it is when the file still has the text it was read from. */
  known?: ToolRecord,
): Promise<ToolRecord | null> {
  const file = layout.toolFile(bundleID, toolID);
  if (known?.kind !== 'valid') return checkedOnce(validator, cache, bundleID, toolID, file, await readJsonFile(file));
  const read = await readJsonFileUnlessKnown(file, (text) => ValidationCache.digest(text) === known.digest);
  return 'unchanged' in read ? known : checkedOnce(validator, cache, bundleID, toolID, file, read);
}

/** The cold load's reader, the same but synchronous (see readJsonFileSync). */
export function readToolRecordSync(
  layout: StoreLayout,
  validator: DocumentValidator,
  bundleID: string,
  toolID: string,
  cache: ValidationCache,
): ToolRecord | null {
  const file = layout.toolFile(bundleID, toolID);
  return checkedOnce(validator, cache, bundleID, toolID, file, readJsonFileSync(file));
}

function checkedOnce(validator: DocumentValidator, cache: ValidationCache, bundleID: string, toolID: string, file: string, read: JsonReadResult): ToolRecord | null {
  const verdict = read.ok ? cache.check(toolID, read.text) : null;
  const record = toolRecordFrom(verdict?.known ? null : validator, bundleID, toolID, file, read, verdict?.digest);
  if (record?.kind === 'valid' && verdict) cache.rememberValid(toolID, verdict.digest);
  return record;
}

function toolRecordFrom(
  /** null: the text is known valid under the current rules (ValidationCache). */
  validator: DocumentValidator | null,
  bundleID: string,
  toolID: string,
  file: string,
  read: JsonReadResult,
  /** The text's digest, when the caller already made it. */
  digest?: string,
): ToolRecord | null {
  if (!read.ok) {
    if (read.missing) return null;
    return { kind: 'invalid', toolID, bundleID, file, reason: read.reason, salvage: {}, text: read.text };
  }
  const value = read.value;
  const invalid = (reason: string): ToolRecord => ({
    kind: 'invalid',
    toolID,
    bundleID,
    file,
    reason,
    salvage: salvage(value),
    text: read.text,
  });
  const checked = validator ? validator.toolFile(read.value, false) : { ok: true as const, value: read.value as ToolFile };
  if (!checked.ok) return invalid(describeIssues(checked.issues));
  if (checked.value.toolID !== toolID) return invalid(`toolID ${checked.value.toolID} does not match the file name`);
  if (checked.value.bundleID !== bundleID) return invalid(`bundleID ${checked.value.bundleID} does not match its bundle folder`);
  if (checked.value.isBuiltIn) return invalid('isBuiltIn is true, but built-in tools ship with the app');
  return { kind: 'valid', toolID, bundleID, tool: checked.value, digest: digest ?? ValidationCache.digest(read.text), source: FILES_SOURCE };
}


/** Something in a tools folder that is not a tool file, with the reason a person reads. */
export interface StrayEntry {
  name: string;
  reason: string;
}

export interface ToolFolderListing {
  toolIDs: string[];
  strays: StrayEntry[];
}

/** IDs of the bundle folders (`<uuidv7>`) in the bundles folder. */
export async function listBundleIDs(folder: string): Promise<string[]> {
  return readdir(folder, { withFileTypes: true }).then(bundleIDsOf, missingAsEmpty);
}

export function listBundleIDsSync(folder: string): string[] {
  try {
    return bundleIDsOf(readdirSync(folder, { withFileTypes: true }));
  } catch (error) {
    return missingAsEmpty(error);
  }
}

/** A tools folder: its tool files (`<uuidv7>.json`), and whatever else is there, so nothing in it is invisible. */
export async function listToolFolder(folder: string): Promise<ToolFolderListing> {
  return readdir(folder, { withFileTypes: true }).then(toolFolderOf, (error: unknown) => ({ toolIDs: missingAsEmpty(error), strays: [] }));
}

export function listToolFolderSync(folder: string): ToolFolderListing {
  try {
    return toolFolderOf(readdirSync(folder, { withFileTypes: true }));
  } catch (error) {
    return { toolIDs: missingAsEmpty(error), strays: [] };
  }
}

function missingAsEmpty(error: unknown): string[] {
  if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
  throw error;
}

function bundleIDsOf(entries: Dirent[]): string[] {
  return entries.filter((entry) => entry.isDirectory() && toolIDFromFileName(`${entry.name}.json`)).map((entry) => entry.name);
}

function toolFolderOf(entries: Dirent[]): ToolFolderListing {
  const toolIDs: string[] = [];
  const strays: StrayEntry[] = [];
  for (const entry of entries) {
    // Hidden files (.DS_Store, .gitkeep) and writes in progress are no one's concern here.
    if (entry.name.startsWith('.') || ATOMIC_TEMP_FILE.test(entry.name)) continue;
    const id = toolIDFromFileName(entry.name);
    // A link with a tool file's name is read (and refused) like the file it pretends to be.
    if (id && (entry.isFile() || entry.isSymbolicLink())) toolIDs.push(id);
    else if (id && entry.isDirectory()) strays.push({ name: entry.name, reason: 'a folder is where this tool file should be' });
    else if (entry.isSymbolicLink()) strays.push({ name: entry.name, reason: 'a symbolic link; Toolbelt neither reads nor writes through links' });
    else if (entry.isDirectory()) strays.push({ name: entry.name, reason: 'a folder inside tools/; each tool is one file' });
    else strays.push({ name: entry.name, reason: 'not a tool file name: tool files are named <toolID>.json, the toolID being a UUIDv7' });
  }
  return { toolIDs, strays };
}

/** A stray as a tool record, so lists show it (as invalid) instead of hiding it. Its id cannot be a tool's. */
export function strayToolRecord(layout: StoreLayout, bundleID: string, stray: StrayEntry): ToolRecord {
  return {
    kind: 'invalid',
    toolID: `${bundleID}/${stray.name}`,
    bundleID,
    file: path.join(layout.toolsDir(bundleID), stray.name),
    reason: stray.reason,
    salvage: { displayName: stray.name },
  };
}

/** Runs `task` over `items` with at most `limit` in flight (enough to keep the disk busy, not the fd table full). */
export async function forEachLimited<T>(items: readonly T[], limit: number, task: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const workers = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) {
      const item = items[next++]!;
      await task(item);
    }
  });
  await Promise.all(workers);
}

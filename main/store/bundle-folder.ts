import { readdir, rm, rmdir } from 'node:fs/promises';
import path from 'node:path';
import type { StoreLayout } from './layout.js';
import { toolIDFromFileName } from './layout.js';
import { ATOMIC_TEMP_FILE } from '../common/json-files.js';

/** What operating systems leave in folders they show; no one's data. */
const OS_LITTER = new Set(['.DS_Store', 'Thumbs.db', 'desktop.ini']);

/**
 * A bundle folder sorted into what Toolbelt may remove (its own files:
 * bundle.json when the bundle is gone, temporaries of interrupted writes,
 * the tools/ folder) and what it must not (tool files, and anything it did
 * not write: a README, notes, another program's files).
 */
export interface BundleFolderContents {
  folder: string;
  /** False when there is no such folder at all. */
  exists: boolean;
  removableFiles: string[];
  toolFiles: number;
  /** Paths inside the folder, as a person finds them (`README.md`, `tools/notes.json`). */
  foreign: string[];
}

async function entriesOf(folder: string) {
  return readdir(folder, { withFileTypes: true }).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return null;
    throw error;
  });
}

export async function inspectBundleFolder(layout: StoreLayout, bundleID: string, bundleFileIsOurs: boolean): Promise<BundleFolderContents> {
  const folder = layout.bundleDir(bundleID);
  const entries = await entriesOf(folder);
  const contents: BundleFolderContents = { folder, exists: entries !== null, removableFiles: [], toolFiles: 0, foreign: [] };
  for (const entry of entries ?? []) {
    const full = path.join(folder, entry.name);
    if (entry.name === 'tools' && entry.isDirectory()) {
      for (const inner of (await entriesOf(full)) ?? []) {
        const innerFull = path.join(full, inner.name);
        if (inner.isFile() && (ATOMIC_TEMP_FILE.test(inner.name) || OS_LITTER.has(inner.name))) contents.removableFiles.push(innerFull);
        else if (toolIDFromFileName(inner.name) && !inner.isDirectory()) contents.toolFiles++;
        else contents.foreign.push(`tools/${inner.name}`);
      }
    } else if (entry.isFile() && ((entry.name === 'bundle.json' && bundleFileIsOurs) || ATOMIC_TEMP_FILE.test(entry.name) || OS_LITTER.has(entry.name))) {
      contents.removableFiles.push(full);
    } else {
      contents.foreign.push(entry.name);
    }
  }
  return contents;
}

/**
 * Removes a bundle folder that holds only Toolbelt's own files, file by
 * file and then the emptied folders without recursion: a file that appears
 * meanwhile makes the removal stop rather than vanish with the folder.
 */
export async function removeOwnBundleFolder(contents: BundleFolderContents): Promise<void> {
  for (const file of contents.removableFiles) await rm(file, { force: true });
  await rmdir(path.join(contents.folder, 'tools')).catch((error: NodeJS.ErrnoException) => {
    if (error.code !== 'ENOENT') throw error;
  });
  await rmdir(contents.folder);
}

/** Why a folder cannot be removed, in a sentence, or null when it can. */
export function whyKept(contents: BundleFolderContents): string | null {
  if (contents.toolFiles > 0) return `it still holds ${contents.toolFiles} tool file${contents.toolFiles === 1 ? '' : 's'}`;
  if (contents.foreign.length > 0) {
    const shown = contents.foreign.slice(0, 5).join(', ') + (contents.foreign.length > 5 ? `, and ${contents.foreign.length - 5} more` : '');
    return `it holds files Toolbelt did not write (${shown}); move them out of ${contents.folder} first`;
  }
  return null;
}

import { readdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { ATOMIC_TEMP_FILE } from './json-files.js';

const STALE_AFTER_MS = 60_000;

/**
 * Temporaries of atomic writes that a crash (kill -9, power loss) left
 * behind: removed at start when they match our writers' pattern, are older
 * than a minute (no write takes that long), and no live process holds the
 * lock of the folder they are in. Nothing else is touched.
 */
export async function removeStaleTemporaries(options: {
  dataDir: string;
  now: number;
  /** The lock that guards writes in a folder, if one does (bundle folders). */
  lockHeldFor: (folder: string) => Promise<boolean>;
}): Promise<string[]> {
  const { dataDir } = options;
  const bundlesDir = path.join(dataDir, 'bundles');
  const bundleFolders = (await namesIn(bundlesDir)).map((name) => path.join(bundlesDir, name));
  const folders = [dataDir, path.join(dataDir, 'chats'), path.join(dataDir, 'usage'), path.join(dataDir, 'cache'), path.join(dataDir, 'cache', 'scripts'), path.join(dataDir, 'tester'), ...bundleFolders, ...bundleFolders.map((folder) => path.join(folder, 'tools'))];
  const removed: string[] = [];
  for (const folder of folders) {
    const candidates = (await namesIn(folder)).filter((name) => ATOMIC_TEMP_FILE.test(name));
    if (candidates.length === 0 || (await options.lockHeldFor(folder))) continue;
    for (const name of candidates) {
      const file = path.join(folder, name);
      const info = await stat(file).catch(() => null);
      if (!info?.isFile() || options.now - info.mtimeMs < STALE_AFTER_MS) continue;
      await rm(file, { force: true });
      removed.push(file);
    }
  }
  return removed;
}

async function namesIn(folder: string): Promise<string[]> {
  return readdir(folder).catch(() => []);
}

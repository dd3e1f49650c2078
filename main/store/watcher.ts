import path from 'node:path';
import { watch } from 'chokidar';
import type { Logger } from '../log.js';
import { isUuidV7 } from '../../shared/schemas/ids.js';
import type { StoreLayout } from './layout.js';
import type { ToolStore } from './tool-store.js';

export interface StoreWatcher {
  close(): Promise<void>;
}

/**
 * Picks up bundles and tools changed by other programs (an editor, `git
 * pull`, another Toolbelt) without a restart. Events are gathered for a
 * moment and each touched bundle is re-read once; our own writes read back
 * identical and announce nothing.
 */
export async function watchStore(store: ToolStore, layout: StoreLayout, log: Logger, settleMs = 75): Promise<StoreWatcher> {
  const pending = new Set<string>();
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<void> = Promise.resolve();

  const flush = () => {
    timer = null;
    const bundleIDs = [...pending];
    pending.clear();
    running = running
      .then(() => store.syncFromDisk(bundleIDs))
      .then(() => undefined)
      .catch((error: unknown) => log.warn('could not re-read changed bundles', { error: String(error) }));
  };

  const watcher = watch(layout.bundlesDir, {
    ignoreInitial: true,
    depth: 2,
    // Temp files of atomic writes and anything that is not JSON.
    ignored: (file, stats) => !!stats?.isFile() && !file.endsWith('.json'),
  });
  watcher.on('all', (_event, file) => {
    const bundleID = path.relative(layout.bundlesDir, file).split(path.sep)[0];
    if (!bundleID || !isUuidV7(bundleID)) return;
    pending.add(bundleID);
    timer ??= setTimeout(flush, settleMs);
  });
  watcher.on('error', (error) => log.warn('file watcher error', { error: String(error) }));
  await new Promise<void>((resolve) => watcher.once('ready', () => resolve()));

  return {
    async close() {
      if (timer) clearTimeout(timer);
      await watcher.close();
      await running;
    },
  };
}

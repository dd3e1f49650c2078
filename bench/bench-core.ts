import type { CoreOptions } from '../main/core/create-core.js';
import { startScratchCore } from '../testing/cores/scratch-core.js';

/** The real core on a fresh temporary folder, quiet, without the file watcher; `close` removes the folder. */
export function startBenchCore(name: string, options: Partial<CoreOptions> = {}) {
  return startScratchCore(`bench-${name}`, options);
}

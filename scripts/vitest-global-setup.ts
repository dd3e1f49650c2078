// Process-level tests run the built browser host, so build it once up front
// (a no-op when out/ is fresh).
import { ensureBuilt } from './build-lib.mjs';

export default async function setup(): Promise<void> {
  await ensureBuilt();
}
